"""The inference engine: triangles, the frozen rule base, the evaluator that compiles
it, defuzzification and the kernels they run on. Nothing here reads a file."""
