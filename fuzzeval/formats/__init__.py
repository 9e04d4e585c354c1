"""Rule-base files: the YAML format (reading, writing, editing in place, its rule
grammar and JSON Schema), loading with its limits and cache, and fuzzylite's FLL and
MATLAB/Octave's FIS in and out."""
