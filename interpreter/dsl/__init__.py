"""The effect language: parser (Lark grammar in grammar/), name-resolving closure compiler, and
the code generator games run on."""
