"""The front end: spec text to a checked model.

parse (lark, grammar.lark) builds the AST (ast); checks/ finds what is wrong in it (errors,
located at spec text); model, board and graph read the game's frame and map; variants lays
overlays on a base game; loader runs the whole of it for a spec folder; cache keeps parsed
files by their text; fmt/ prints the AST back as spec text (parse's inverse: `rulespec fmt`,
and the spec lines the code generator writes beside its code). May import the runtime's
kernel (its metadata and value types) and the bots' names (agents), nothing else.
"""
