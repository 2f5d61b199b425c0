"""The gate's subject families: one module each (docs/gate.md, ADR 0010)."""
