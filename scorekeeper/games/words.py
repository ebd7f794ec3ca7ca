"""A game's word for its rounds, in the player's language: a train game plays rounds, a points
game plays hands (``GameVariant.round_word``, "Round" or "Hand").

The sentences that name a round say it through these words (``%(round)s`` and the like), or
pick the sentence of their kind where a count goes with the word (``count``). In Spanish and
French both words are feminine (ronda / mano, manche / main), so one sentence fits both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext


def is_hand(word: Any) -> bool:
    """Whether ``word`` (a variant's ``round_word``, plain or lazy text) is "Hand"."""
    return getattr(word, "message", word) == "Hand"


@dataclass(frozen=True)
class RoundWords:
    """The words for one game's rounds, translated when asked (in the request's language)."""

    hand: bool = False

    @property
    def One(self) -> str:  # noqa: N802 (the capitalised word: "Round", "Hand")
        return _("Hand") if self.hand else _("Round")

    @property
    def one(self) -> str:
        return _("hand") if self.hand else _("round")

    @property
    def many(self) -> str:
        return _("hands") if self.hand else _("rounds")

    def count(self, n: int) -> str:
        """``n`` rounds (or hands): "1 round", "3 hands"."""
        if self.hand:
            return ngettext("%(num)s hand", "%(num)s hands", n)
        return ngettext("%(num)s round", "%(num)s rounds", n)

    def of(self, played: int, total: int | None) -> str:
        """How far the game is: "3 rounds", or "3 of 13 rounds" when the game has a length."""
        if total is None:
            return self.count(played)
        # The form goes by the rounds played: the noun counts them in French ("1 manche sur
        # 13", "3 manches sur 13"), whatever the English says.
        if self.hand:
            return ngettext(
                "%(num)s of %(total)s hands", "%(num)s of %(total)s hands", played, total=total
            )
        return ngettext(
            "%(num)s of %(total)s rounds", "%(num)s of %(total)s rounds", played, total=total
        )

    def won(self, n: int) -> str:
        """ "2 rounds won"."""
        if self.hand:
            return ngettext("%(num)s hand won", "%(num)s hands won", n)
        return ngettext("%(num)s round won", "%(num)s rounds won", n)

    def numbered(self, n: int) -> str:
        """ "Round 3", "Hand 3"."""
        return _("Hand %(n)s", n=n) if self.hand else _("Round %(n)s", n=n)


def round_words(word: Any) -> RoundWords:
    """The words of a game whose ``round_word`` is ``word``."""
    return RoundWords(hand=is_hand(word))
