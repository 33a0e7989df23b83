"""The register of players across events (issue 24; docs/register.md): the pure matching
core (``matching``) and the writes that link an event's players to persons (``services``)."""
