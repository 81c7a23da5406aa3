"""The desktop window: a board canvas, a toolbar and menus, and a status bar.

``DesktopApp`` wires Tk events to a ``GameSession`` and draws what it holds. It
never waits for the AI: a ``root.after`` loop drains the search worker's queue
every ``theme.POLL_MS`` milliseconds, so the window keeps redrawing, resizing
and answering clicks while the AI thinks. Tests drive it without ``mainloop``:
they generate events on ``canvas`` and call ``root.update()``.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable
from tkinter import filedialog, ttk

from abgames.ai.levels import make_player
from abgames.games import ConnectFour, Gomoku, Move
from abgames.games.gomoku import Rule
from abgames.match import SaveFileError
from abgames.search.score import describe
from abgames.ui.desktop import theme
from abgames.ui.desktop.boards import VIEWS, BoardView, Overlay
from abgames.ui.desktop.controller import (
    NOT_SOLVED,
    Analysis,
    GameSession,
    GameSettings,
    PlayerFactory,
)
from abgames.ui.desktop.dialog import NewGameDialog

SAVE_FILE_TYPES = [("abgames saves", "*.json"), ("All files", "*")]
#: How many moves of the principal variation the analysis line names.
PV_WORDS = 8
#: The index of each game-specific check button in the View menu.
VIEW_MENU_ENTRIES = {"numbers": 1, "forbidden": 2}
#: Tk's own file dialog (X11) for a dialog whose parent is the main window.
FILE_DIALOG = ".__tk_filedialog"
#: Space between the window and a file dialog placed beside it.
DIALOG_GAP_PX = 8
#: The check buttons above the board, left to right.
TOGGLE_ORDER = ("analysis", "numbers", "forbidden")


class DesktopApp:
    """One window for all three games.

    ``screen`` is an X display name (``":99"``) to open the window on instead of
    ``$DISPLAY``; ``player_factory`` and ``seed`` go to the session (tests pass
    a scripted or seeded player); ``ai_pause_s`` is the pause before each move
    of an AI-AI game.
    """

    def __init__(
        self,
        settings: GameSettings | None = None,
        *,
        screen: str | None = None,
        seed: int | None = None,
        player_factory: PlayerFactory = make_player,
        ai_pause_s: float = theme.AI_AI_PAUSE_S,
    ) -> None:
        self.root = tk.Tk(screenName=screen, className="abgames")
        self.root.title(theme.WINDOW_TITLE)
        self.root.configure(background=theme.BACKGROUND)
        self.root.minsize(*theme.MIN_CANVAS_PX)
        self.closed = False
        self.session = GameSession(
            settings, seed=seed, player_factory=player_factory, ai_pause_s=ai_pause_s
        )
        self.show_analysis = tk.BooleanVar(self.root, False)
        self.show_numbers = tk.BooleanVar(self.root, False)
        self.show_forbidden = tk.BooleanVar(self.root, True)
        self.turn_text = tk.StringVar(self.root, "")
        self.note_text = tk.StringVar(self.root, "")
        self.clock_text = tk.StringVar(self.root, "")
        self.search_text = tk.StringVar(self.root, "")
        self.info_text = tk.StringVar(self.root, "")
        self.analysis_title = tk.StringVar(self.root, "")
        self.analysis_text = tk.StringVar(self.root, "")
        self.hover: tuple[float, float] | None = None
        #: Why the last ``load_from`` failed (``None`` after a success).
        self.load_failure: str | None = None
        self.dialog: NewGameDialog | None = None
        self._forbidden_cache: tuple[int, int, dict[Move, str]] | None = None
        self._seen_moves = 0
        self._redraw_pending: str | None = None
        self._build()
        self.view: BoardView = VIEWS[self.session.match.game](self.canvas)
        self.root.protocol("WM_DELETE_WINDOW", self.quit)
        self._poll_id: str | None = self.root.after(theme.POLL_MS, self._poll)
        self._size_fixed = False
        self.refresh()

    # --- building the window -----------------------------------------------------
    def _build(self) -> None:
        root = self.root
        menubar = tk.Menu(root)
        game_menu = tk.Menu(menubar, tearoff=False)
        game_menu.add_command(label="New game…", accelerator="Ctrl+N", command=self.open_new_game)
        game_menu.add_command(label="Restart", command=self.restart)
        game_menu.add_separator()
        game_menu.add_command(label="Save…", accelerator="Ctrl+S", command=self.ask_save)
        game_menu.add_command(label="Load…", accelerator="Ctrl+O", command=self.ask_load)
        game_menu.add_separator()
        game_menu.add_command(label="Quit", accelerator="Ctrl+Q", command=self.quit)
        menubar.add_cascade(label="Game", menu=game_menu)
        move_menu = tk.Menu(menubar, tearoff=False)
        move_menu.add_command(label="Undo", accelerator="Ctrl+Z", command=self.undo)
        move_menu.add_command(label="Hint", accelerator="H", command=self.hint)
        move_menu.add_command(label="Move now", accelerator="M", command=self.move_now)
        menubar.add_cascade(label="Moves", menu=move_menu)
        view_menu = tk.Menu(menubar, tearoff=False)
        self.view_menu = view_menu
        view_menu.add_checkbutton(
            label="Analysis", accelerator="A", variable=self.show_analysis, command=self.refresh
        )
        view_menu.add_checkbutton(
            label="Move numbers", variable=self.show_numbers, command=self.refresh
        )
        view_menu.add_checkbutton(
            label="Forbidden points (Renju)", variable=self.show_forbidden, command=self.refresh
        )
        menubar.add_cascade(label="View", menu=view_menu)
        root.configure(menu=menubar)

        toolbar = ttk.Frame(root, padding=(4, 4))
        toolbar.pack(side=tk.TOP, fill=tk.X)
        self.buttons: dict[str, ttk.Button] = {}
        for name, label, command in (
            ("new", "New game…", self.open_new_game),
            ("undo", "Undo", self.undo),
            ("hint", "Hint", self.hint),
            ("move_now", "Move now", self.move_now),
            ("save", "Save…", self.ask_save),
            ("load", "Load…", self.ask_load),
        ):
            button = ttk.Button(toolbar, text=label, command=command)
            button.pack(side=tk.LEFT, padx=2)
            self.buttons[name] = button
        # Every label that shows changing text asks for one character of width, so
        # its text never widens the window (which keeps its width from game to game)
        # and a long text is cut at its own cell, never drawn over its neighbours.
        info = ttk.Frame(root, padding=(8, 2))
        info.pack(side=tk.TOP, fill=tk.X)
        self.toggles: dict[str, ttk.Checkbutton] = {}
        for name, label, variable in (
            ("forbidden", "Forbidden", self.show_forbidden),
            ("numbers", "Numbers", self.show_numbers),
            ("analysis", "Analysis", self.show_analysis),
        ):
            toggle = ttk.Checkbutton(info, text=label, variable=variable, command=self.refresh)
            toggle.pack(side=tk.RIGHT, padx=2)
            self.toggles[name] = toggle
        # The game's title and the analysis lines wrap in a narrow window rather than
        # being cut (the title ran into the check boxes).
        self.info_label = wrapping_label(info, self.info_text)
        self.info_label.pack(side=tk.LEFT, fill=tk.X, expand=True)
        self.analysis_frame = ttk.Frame(root, padding=(8, 0))
        for line in (self.analysis_title, self.analysis_text):
            wrapping_label(self.analysis_frame, line).pack(side=tk.TOP, fill=tk.X)
        status = ttk.Frame(root, padding=(8, 3))
        status.pack(side=tk.BOTTOM, fill=tk.X)
        status.columnconfigure(0, weight=1)
        self.turn_label = self._status_label(status, self.turn_text)
        self.turn_label.grid(row=0, column=0, sticky="ew")
        self.clock_label = self._status_label(status, self.clock_text)
        self.clock_label.configure(width=0)  # the clocks always get their whole width
        self.clock_label.grid(row=0, column=1, sticky="e")
        self.search_label = self._status_label(status, self.search_text)
        self.search_label.grid(row=1, column=0, columnspan=2, sticky="ew")
        self.note_label = ttk.Label(
            root,
            textvariable=self.note_text,
            padding=(8, 0),
            anchor="w",
            font=theme.STATUS_FONT,
            width=1,
        )
        self.note_label.pack(side=tk.BOTTOM, fill=tk.X)

        width, height = theme.INITIAL_CANVAS_PX
        self.canvas = tk.Canvas(
            root,
            width=width,
            height=height,
            background=theme.BACKGROUND,
            highlightthickness=0,
        )
        self.canvas.pack(side=tk.TOP, fill=tk.BOTH, expand=True)
        self.canvas.bind("<Configure>", lambda _event: self.redraw())
        self.canvas.bind("<Button-1>", self._on_click)
        self.canvas.bind("<Motion>", self._on_motion)
        self.canvas.bind("<Leave>", self._on_leave)
        for sequence, command in (
            ("<Control-n>", self.open_new_game),
            ("<Control-z>", self.undo),
            ("<Control-s>", self.ask_save),
            ("<Control-o>", self.ask_load),
            ("<Control-q>", self.quit),
            ("<KeyPress-h>", self.hint),
            ("<KeyPress-m>", self.move_now),
            ("<KeyPress-a>", self.toggle_analysis),
        ):
            self._bind_key(sequence, command)

    @staticmethod
    def _status_label(parent: tk.Misc, variable: tk.StringVar) -> ttk.Label:
        return ttk.Label(parent, textvariable=variable, font=theme.STATUS_FONT, anchor="w", width=1)

    def _bind_key(self, sequence: str, command: Callable[[], object]) -> None:
        def handler(_event: tk.Event[tk.Misc]) -> None:
            command()

        self.root.bind(sequence, handler)

    # --- events ----------------------------------------------------------------------
    def _on_click(self, event: tk.Event[tk.Canvas]) -> None:
        self.click_at(event.x, event.y)

    def click_at(self, x: float, y: float) -> bool:
        """A click at canvas pixel (x, y): play the move there or note why not."""
        move = self.view.move_at(self.session.match.state, x, y)
        played = self.session.click(move)
        self.refresh()
        return played

    def _on_motion(self, event: tk.Event[tk.Canvas]) -> None:
        self.hover = (event.x, event.y)
        if self.session.match.game == "connect4":
            self.redraw()

    def _on_leave(self, _event: tk.Event[tk.Canvas]) -> None:
        self.hover = None
        if self.session.match.game == "connect4":
            self.redraw()

    def _poll(self) -> None:
        """Take in the AI's results, refresh the status bar, and come back soon."""
        if self.closed:
            return
        self._fix_size()
        if self.session.poll():
            self.refresh()
        else:
            self._update_status()
        self._poll_id = self.root.after(theme.POLL_MS, self._poll)

    def _fix_size(self) -> None:
        """Once the window is on screen, keep its size until the user changes it.

        Tk would otherwise follow what the widgets ask for, so a longer text, the
        analysis lines or a game's check buttons would make the window jump.
        """
        if self._size_fixed or not self.root.winfo_ismapped():
            return
        self.root.geometry(f"{self.root.winfo_width()}x{self.root.winfo_height()}")
        self._size_fixed = True

    # --- commands ----------------------------------------------------------------------
    def open_new_game(self) -> NewGameDialog:
        """Show the new-game dialog (one at a time) and return it."""
        if self.dialog is not None and self.dialog.window.winfo_exists():
            self.dialog.window.lift()
            return self.dialog
        self.dialog = NewGameDialog(self.root, self.session.settings, self.new_game)
        return self.dialog

    def new_game(self, settings: GameSettings | None = None) -> None:
        """Start a new game; ``ValueError`` (shown by the dialog) for bad settings."""
        self.session.new_game(settings)
        self._new_board()

    def restart(self) -> None:
        self.new_game(None)

    def _new_board(self) -> None:
        self.view = VIEWS[self.session.match.game](self.canvas)
        self._seen_moves = self.session.moves_played
        self._forbidden_cache = None
        self.hover = None
        self.refresh()

    def undo(self) -> None:
        self.session.undo()
        self._seen_moves = self.session.moves_played
        self.refresh()

    def hint(self) -> None:
        self.session.request_hint()
        self.refresh()

    def move_now(self) -> None:
        self.session.move_now()
        self.refresh()

    def toggle_analysis(self) -> None:
        self.show_analysis.set(not self.show_analysis.get())
        self.refresh()

    def ask_save(self) -> None:
        self._place_file_dialog_soon()
        path = filedialog.asksaveasfilename(
            parent=self.root,
            title="Save game",
            defaultextension=".json",
            filetypes=SAVE_FILE_TYPES,
        )
        if path:
            self.save_to(path)

    def ask_load(self) -> None:
        self._place_file_dialog_soon()
        path = filedialog.askopenfilename(
            parent=self.root, title="Load game", filetypes=SAVE_FILE_TYPES
        )
        if path:
            self.load_from(path)

    def _place_file_dialog_soon(self) -> None:
        """Move the file dialog about to open beside the window, off the board.

        Tk centres its file dialog on the window, which hides the middle of the
        board, where an early game's stones all are: it looked as if the board had
        been drawn empty. Where the screen has room on either side the dialog goes
        there; native dialogs (Windows, macOS) are left where the system puts them.
        """
        self.root.after(0, self._place_file_dialog)

    def _place_file_dialog(self) -> None:
        tcl, root = self.root.tk, self.root
        if not root.getboolean(tcl.call("winfo", "exists", FILE_DIALOG)):
            return
        tcl.call("update", "idletasks")
        width = int(tcl.call("winfo", "width", FILE_DIALOG))
        if width <= 1:
            width = int(tcl.call("winfo", "reqwidth", FILE_DIALOG))
        left, right = root.winfo_rootx(), root.winfo_rootx() + root.winfo_width()
        if right + DIALOG_GAP_PX + width <= root.winfo_screenwidth():
            x = right + DIALOG_GAP_PX
        elif left - DIALOG_GAP_PX - width >= 0:
            x = left - DIALOG_GAP_PX - width
        else:
            return  # no room beside the window: Tk's place it is
        tcl.call("wm", "geometry", FILE_DIALOG, f"+{x}+{root.winfo_rooty()}")

    def save_to(self, path: str) -> bool:
        """Save as the terminal's JSON; a failure is shown in the status bar."""
        try:
            self.session.save(path)
        except SaveFileError as error:
            self.session.note = str(error)
            self.refresh()
            return False
        self.refresh()
        return True

    def load_from(self, path: str) -> bool:
        """Load a saved game; a failure is shown in the status bar and changes nothing."""
        try:
            self.session.load(path)
        except (SaveFileError, OSError) as error:
            self.load_failure = str(error)
            self.session.note = f"Not loaded: {error}. The game goes on."
            self.refresh()
            return False
        self.load_failure = None
        self._new_board()
        return True

    def quit(self) -> None:
        """Close now, even mid-search: the search is stopped and its thread is a daemon."""
        if self.closed:
            return
        self.closed = True
        self.session.shutdown()
        if self._poll_id is not None:
            self.root.after_cancel(self._poll_id)
        if self._redraw_pending is not None:
            self.root.after_cancel(self._redraw_pending)
        self.root.destroy()

    def run(self) -> int:
        """Show the window until it is closed; the exit code."""
        self.root.mainloop()
        if not self.closed:
            self.quit()
        return 0

    # --- drawing -----------------------------------------------------------------------
    def refresh(self) -> None:
        """Redraw the board and the status lines after a change."""
        if self.closed:
            return
        if self.session.moves_played > self._seen_moves:
            self.view.moved(self.session.match.state)
        self._seen_moves = self.session.moves_played
        self.redraw()
        self._update_status()

    def redraw(self) -> None:
        if self.closed:
            return
        self._offer_toggles()
        self.view.draw(self.session.match.state, self.overlay())
        if self.view.animating and self._redraw_pending is None:
            self._redraw_pending = self.root.after(theme.DROP_FRAME_MS, self._animate)

    def _animate(self) -> None:
        self._redraw_pending = None
        self.redraw()

    def overlay(self) -> Overlay:
        session = self.session
        analysis = session.analysis(include_last_ai=self.show_analysis.get())
        hint = analysis.result.move if analysis is not None and analysis.is_hint else None
        shown = analysis if self.show_analysis.get() else None
        return Overlay(
            hint=hint,
            analysis=shown,
            show_numbers=self.show_numbers.get(),
            forbidden=self.forbidden_points() if self.show_forbidden.get() else {},
            hover=self.hover,
            can_play=session.can_click(),
        )

    def forbidden_points(self) -> dict[Move, str]:
        """Black's forbidden points while black is to move in Renju (cached per position)."""
        state = self.session.match.state
        if not isinstance(state, Gomoku) or state.rule is not Rule.RENJU:
            return {}
        if state.to_move != 0 or state.is_over():
            return {}
        cached = self._forbidden_cache
        if cached is not None and cached[:2] == (state.key, state.ply):
            return cached[2]
        points = state.forbidden_points()
        self._forbidden_cache = (state.key, state.ply, points)
        return points

    def _offer_toggles(self) -> None:
        """Offer Numbers in Gomoku and Forbidden in Renju only; show the analysis lines."""
        state = self.session.match.state
        offered = {
            "numbers": isinstance(state, Gomoku),
            "forbidden": isinstance(state, Gomoku) and state.rule is Rule.RENJU,
        }
        shown = [name for name in TOGGLE_ORDER if offered.get(name, True)]
        packed = [name for name in TOGGLE_ORDER if self.toggles[name].winfo_manager()]
        if shown != packed:
            for toggle in self.toggles.values():
                toggle.pack_forget()
            for name in reversed(shown):  # packed from the right
                self.toggles[name].pack(side=tk.RIGHT, padx=2)
        for name, wanted in offered.items():
            self.view_menu.entryconfigure(
                VIEW_MENU_ENTRIES[name], state=tk.NORMAL if wanted else tk.DISABLED
            )
        if self.show_analysis.get() and not self.analysis_frame.winfo_manager():
            self.analysis_frame.pack(side=tk.TOP, fill=tk.X, before=self.canvas)
        elif not self.show_analysis.get() and self.analysis_frame.winfo_manager():
            self.analysis_frame.pack_forget()

    def _update_status(self) -> None:
        session = self.session
        self.turn_text.set(session.turn_text())
        self.search_text.set(session.search_text())
        self.note_text.set(session.note)
        self.clock_text.set(session.clock_text())
        info = f"{session.board_text()}: {session.mode_text()}"
        analysis = session.analysis() if self.show_analysis.get() else None
        if analysis is not None:
            self.analysis_title.set(analysis_caption(analysis))
            self.analysis_text.set(analysis_details(analysis))
        elif self.show_analysis.get():
            self.analysis_title.set("Analysis: no search yet (press H for a hint).")
            self.analysis_text.set("")
        else:
            self.analysis_title.set("")
            self.analysis_text.set("")
        self.info_text.set(info)
        thinking = session.thinking
        self.buttons["move_now"].state(["!disabled"] if thinking else ["disabled"])


def wrapping_label(parent: tk.Misc, variable: tk.StringVar) -> ttk.Label:
    """A label of ``variable`` that wraps its text at its own width, whatever that is."""
    label = ttk.Label(parent, textvariable=variable, anchor="w", justify=tk.LEFT, width=1)

    def wrap(event: tk.Event[ttk.Label]) -> None:
        wanted = max(1, event.width - 2)
        if str(label.cget("wraplength")) != str(wanted):
            label.configure(wraplength=wanted)

    label.bind("<Configure>", wrap)
    return label


def analysis_caption(analysis: Analysis) -> str:
    """Whose view the heat map is: the hint's (the side to move) or the AI's, before its move."""
    base = analysis.base
    viewer = base.player_names[analysis.viewer]
    if analysis.is_hint:
        return f"Hint for {viewer}: {viewer}'s score for each move now."
    played = ""
    if analysis.played is not None:
        # Connect Four's moves are bare column numbers: "its move 5" read as a move count.
        column = " in column" if isinstance(base, ConnectFour) else ""
        played = f"{column} {base.format_move(analysis.played)}"
    return f"{viewer}'s view before its move{played}: its scores for the moves still open."


def analysis_details(analysis: Analysis) -> str:
    """Depth, nodes, time, the score in words and the expected line of ``analysis``."""
    result = analysis.result
    words = []
    probe = analysis.base.copy()
    for move in result.pv[:PV_WORDS]:
        try:
            words.append(probe.format_move(move))
            probe.play(move)
        except ValueError:
            break
    score = NOT_SOLVED if analysis.fell_back else describe(result.score, solved=result.solved)
    return (
        f"depth {result.depth}, {result.nodes:,} nodes, {result.elapsed:.1f} s; "
        f"{score}; line {' '.join(words)}"
    )


def run_app(settings: GameSettings | None = None, *, seed: int | None = None) -> int:
    """Open the window and play until it is closed."""
    return DesktopApp(settings, seed=seed).run()
