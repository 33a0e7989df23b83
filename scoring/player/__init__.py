"""A player's phone: his seat now and next, his results, kept in the cache per version; its addresses under /p/."""
