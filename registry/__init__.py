"""A PostgreSQL-first, multi-tenant registry of AI agents in three layers.

The names a service needs most are here; the rest lives in its module (registry.api, …).
"""

from registry.errors import RegistryError
from registry.frame import FramedPrompt, frame_system_prompt
from registry.gate import InstructionsRejected, validate_instructions

__all__ = ["FramedPrompt", "InstructionsRejected", "RegistryError", "frame_system_prompt", "validate_instructions"]
