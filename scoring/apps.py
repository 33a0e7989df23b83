from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self):
        from events import gamesettings
        from scoring import receivers  # noqa: F401  (connects to the lower layers' signals)
        from scoring.sheets import SHEET_GAMES

        for game, sheets in SHEET_GAMES.items():
            gamesettings.register(game, sheets.settings_lines)
