from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self):
        from events import actionlog, gamesettings
        from scoring import (
            games,
            receivers,  # noqa: F401  (connects to the lower layers' signals)
        )
        from scoring.sheets.display import entered_text

        # A sheet's entered data on the «Журнал» in its game's words, not as stored.
        actionlog.reader("data", entered_text)
        for convention, game in games.GAMES.items():
            gamesettings.register(
                convention,
                game.sheets.settings_lines,
                game.defaults.get(convention),
                game.sheets.label(convention),
                game.sheets.event_part(),
            )
