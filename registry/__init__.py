"""A PostgreSQL-first, multi-tenant registry of AI agents in three layers."""

from registry.errors import RegistryError

__all__ = ["RegistryError"]
