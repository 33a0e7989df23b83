"""The scoring API (docs/api.md): the same services behind DRF; its addresses under /api/v1/."""
