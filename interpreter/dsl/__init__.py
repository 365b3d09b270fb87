"""The effect language, one pipeline per text at load time: parser (Lark grammar in grammar/),
resolve (names, checks, diagnostics), codegen (the Python games run on); compiler.py drives it."""
