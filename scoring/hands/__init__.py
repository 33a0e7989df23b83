"""Hand records and the double-dummy analysis: the dealing check, the deals' tables, their pages."""
