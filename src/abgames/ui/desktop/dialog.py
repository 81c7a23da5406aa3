"""The new-game dialog: game, mode, who moves first, level, rule and board size.

The dialog does not block: it calls ``on_accept(settings)`` when OK is pressed
with valid choices, and shows the reason under the fields otherwise.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable
from tkinter import ttk

from abgames.ai.levels import DEFAULT_LEVEL, LEVELS
from abgames.games.connect4 import MAX_HEIGHT, MAX_WIDTH
from abgames.games.connect4 import MIN_SIZE as C4_MIN
from abgames.games.gomoku import MAX_SIZE, MIN_SIZE, Rule
from abgames.match import AI, HUMAN, MODES
from abgames.ui.desktop.controller import GAME_TITLES, GameSettings

GAME_BY_TITLE = {title: game for game, title in GAME_TITLES.items()}
FIRST_CHOICES = (HUMAN, AI)
PAD_PX = 6


class NewGameDialog:
    """A small window of choices, filled in from ``current``."""

    def __init__(
        self,
        master: tk.Misc,
        current: GameSettings,
        on_accept: Callable[[GameSettings], None],
    ) -> None:
        self.on_accept = on_accept
        self.window = tk.Toplevel(master)
        self.window.title("New game")
        self.window.transient(master.winfo_toplevel())
        self.window.resizable(False, False)
        self.game = tk.StringVar(self.window, GAME_TITLES[current.game])
        self.mode = tk.StringVar(self.window, current.mode)
        self.first = tk.StringVar(self.window, current.first)
        self.level = tk.StringVar(self.window, current.resolved_level)
        self.rule = tk.StringVar(self.window, current.rule)
        self.size = tk.StringVar(self.window, str(current.size))
        self.width = tk.StringVar(self.window, str(current.width))
        self.height = tk.StringVar(self.window, str(current.height))
        self.error = tk.StringVar(self.window, "")

        frame = ttk.Frame(self.window, padding=PAD_PX * 2)
        frame.pack(fill=tk.BOTH, expand=True)
        rows: list[tuple[str, tk.Widget]] = []

        def combo(variable: tk.StringVar, values: tuple[str, ...]) -> ttk.Combobox:
            return ttk.Combobox(frame, textvariable=variable, values=values, state="readonly")

        def spin(variable: tk.StringVar, low: int, high: int) -> ttk.Spinbox:
            return ttk.Spinbox(frame, textvariable=variable, from_=low, to=high, width=6)

        self.game_box = combo(self.game, tuple(GAME_TITLES.values()))
        self.level_box = combo(self.level, LEVELS[current.game])
        self.rule_box = combo(self.rule, tuple(rule.value for rule in Rule))
        self.size_box = spin(self.size, MIN_SIZE, MAX_SIZE)
        self.width_box = spin(self.width, C4_MIN, MAX_WIDTH)
        self.height_box = spin(self.height, C4_MIN, MAX_HEIGHT)
        rows = [
            ("Game", self.game_box),
            ("Mode", combo(self.mode, MODES)),
            ("Moves first", combo(self.first, FIRST_CHOICES)),
            ("AI level", self.level_box),
            ("Gomoku rule", self.rule_box),
            ("Gomoku size", self.size_box),
            ("Connect Four columns", self.width_box),
            ("Connect Four rows", self.height_box),
        ]
        for index, (label, widget) in enumerate(rows):
            ttk.Label(frame, text=label).grid(row=index, column=0, sticky="w", pady=2)
            widget.grid(row=index, column=1, sticky="ew", pady=2, padx=(PAD_PX, 0))
        ttk.Label(frame, textvariable=self.error, foreground="#b00020").grid(
            row=len(rows), column=0, columnspan=2, sticky="w"
        )
        buttons = ttk.Frame(frame)
        buttons.grid(row=len(rows) + 1, column=0, columnspan=2, sticky="e", pady=(PAD_PX, 0))
        self.ok_button = ttk.Button(buttons, text="Start", command=self.accept)
        self.cancel_button = ttk.Button(buttons, text="Cancel", command=self.close)
        self.cancel_button.pack(side=tk.RIGHT)
        self.ok_button.pack(side=tk.RIGHT, padx=PAD_PX)
        self.game_box.bind("<<ComboboxSelected>>", lambda _event: self.game_changed())
        self.window.bind("<Return>", lambda _event: self.accept())
        self.window.bind("<Escape>", lambda _event: self.close())
        self.game_changed(keep_level=True)

    @property
    def chosen_game(self) -> str:
        return GAME_BY_TITLE.get(self.game.get(), self.game.get())

    def game_changed(self, keep_level: bool = False) -> None:
        """Offer the chosen game's levels and enable only its board options."""
        game = self.chosen_game
        levels = LEVELS.get(game, ())
        self.level_box.configure(values=levels)
        if not keep_level or self.level.get() not in levels:
            self.level.set(DEFAULT_LEVEL.get(game, ""))
        self.rule_box.configure(state="readonly" if game == "gomoku" else "disabled")
        self.size_box.configure(state="normal" if game == "gomoku" else "disabled")
        for box in (self.width_box, self.height_box):
            box.configure(state="normal" if game == "connect4" else "disabled")

    def settings(self) -> GameSettings:
        """The chosen settings; ``ValueError`` naming the field that is wrong."""
        numbers: dict[str, int] = {}
        for name, variable in (("size", self.size), ("width", self.width), ("height", self.height)):
            try:
                numbers[name] = int(variable.get())
            except ValueError:
                raise ValueError(f"the {name} must be a whole number") from None
        return GameSettings(
            game=self.chosen_game,
            mode=self.mode.get(),
            first=self.first.get(),
            level=self.level.get(),
            rule=self.rule.get(),
            **numbers,
        )

    def accept(self) -> None:
        try:
            settings = self.settings()
            self.on_accept(settings)
        except ValueError as error:
            self.error.set(str(error))
            return
        self.close()

    def close(self) -> None:
        self.window.destroy()
