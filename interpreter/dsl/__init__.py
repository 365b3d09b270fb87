"""The effect language, one pipeline per text at load time, one package per pass: parse/ (the
Lark grammar in grammar/), resolve/ (names, types, every diagnostic), emit/ (the Python games
run on); runtime/ is what that Python calls while a game runs. compiler.py drives the passes."""
