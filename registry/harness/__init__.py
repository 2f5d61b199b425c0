"""The harness around the prompt (the seeds' "harness de agentes" and "primitivas de raciocínio"):
pure, testable pieces that the prompt path (registry.prompting) uses beside the assembler.

    hooks               an immutable registry of handlers per phase, run in order, able to halt
    progress            per-step retry counts and stuck-loop detection by Levenshtein similarity
    prehydration        references in a task's text, resolved in parallel and pruned to a budget
    scoped_conventions  a directory's conventions: nearest directory first, deduplicated, capped

docs/assembly.md shows each at work; ADRs 0013 and 0014 record why they are shaped this way.
"""
