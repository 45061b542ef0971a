//! Rule on one game read from PGN: the first automatic end under the Laws, every correct
//! claim the player to move could have made, the first unreadable or illegal move, and
//! the final position's questions (6.9 after a loss on time).

use std::ops::ControlFlow;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use shakmaty::{Chess, Color, Move, Position};

use crate::board::{SetupError, from_fen, parse_san_bytes, start};
use crate::history::History;
use crate::identity::Key;
use crate::pgn::{GameText, MAX_GAME_BYTES, MainLine, decode, py_repr, read_main_line, read_tags};
use crate::rules::dead::{self, DeadTest, DeadVerdict};
use crate::rules::{
    Claim, End, EndKind, EndRule, checkmate_or_stalemate, fifty_claims, seventyfive_moves,
    threefold_claims,
};
use crate::unwinnable::{self, Answer, Budget, Interrupt, Mode, Verdict};

/// Which claims to collect: all, the first of each kind and player, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimMode {
    All,
    First,
    None,
}

/// Which dead-position test runs after every ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadMode {
    /// the engine on candidate positions, full mode within a budget (`remis game`)
    Engine,
    /// the engine in quick mode only (the audit)
    Quick,
    /// insufficient material only
    Material,
}

/// The half-moves a fifty-move claim needs in a position.
pub type Count = Rc<dyn Fn(&Chess) -> u32>;

/// The Laws of a game by its `Date` tag.
pub type ByDate = Arc<dyn Fn(Option<&str>) -> GameLaws + Send + Sync>;

/// The Laws one game is judged by where they are not today's (`--laws as-played`):
/// whether the 9.6 ends apply, and, where it is not [`Options::fifty`] everywhere, the
/// half-moves a fifty-move claim needs in a position (some endings had a longer count).
pub struct GameLaws {
    pub rule: EndRule,
    pub fifty: Option<Count>,
}

/// The Laws of a game from its `Date` tag (the caller knows the editions).
#[derive(Clone)]
pub struct LawsByDate(pub ByDate);

impl std::fmt::Debug for LawsByDate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LawsByDate")
    }
}

/// How to rule on games.
#[derive(Clone, Debug)]
pub struct Options {
    pub claims: ClaimMode,
    /// where no end was found, ask full mode once more about the last position and, where
    /// it is dead, end the game at the first position proved dead
    pub last_position: bool,
    pub dead: DeadMode,
    pub rule: EndRule,
    /// half-moves for a fifty-move claim (100 under today's Laws)
    pub fifty: u32,
    /// the Laws of each game by its date, in place of `rule` and `fifty`
    pub laws: Option<LawsByDate>,
    /// answer 6.9 for a game whose Termination tag says it was lost on time
    pub time_forfeit: bool,
    /// keep the main line's moves (UCI) in the facts
    pub record: bool,
    /// bounds of the engine's full-mode questions on one game (the 6.9 answer, the
    /// last position's test): nodes for each, and seconds for all of them
    pub engine_nodes: Option<u64>,
    pub engine_seconds: Option<f64>,
    /// a test that stops those questions early (a cancelled request)
    pub interrupt: Option<Interrupt>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            claims: ClaimMode::All,
            last_position: true,
            dead: DeadMode::Engine,
            rule: EndRule::All,
            fifty: 100,
            laws: None,
            time_forfeit: true,
            record: false,
            engine_nodes: None,
            engine_seconds: None,
            interrupt: None,
        }
    }
}

/// An unreadable or illegal move (or an unplayable game), where it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError {
    pub ply: u32,
    pub message: String,
    /// byte offset in the stream
    pub offset: u64,
}

/// 6.9: who ran out of time and, unless the game had ended, whether the opponent can
/// still checkmate.
#[derive(Clone, Debug)]
pub struct Flag {
    pub player: Color,
    pub verdict: Option<Verdict>,
}

/// Everything the core says about one game.
#[must_use = "the facts of a game are its ruling"]
#[derive(Clone, Debug)]
pub struct GameFacts {
    pub index: u64,
    pub offset: u64,
    pub headers: Vec<(String, String)>,
    pub variant: String,
    pub plies: u32,
    pub end: Option<End>,
    pub claims: Vec<Claim>,
    pub error: Option<GameError>,
    /// the start position and the last position replayed (None when unplayable)
    pub start: Option<Chess>,
    pub last: Option<Chess>,
    /// the position where the game ended (the record may go on after it)
    pub end_position: Option<Chess>,
    pub flag: Option<Flag>,
    /// nodes the engine's full-mode questions spent, and whether one of them was left
    /// open by `Options::engine_nodes` or `engine_seconds`
    pub nodes: u64,
    pub cut: bool,
    /// the main line's moves in UCI, when asked for (`Options::record`)
    pub moves: Vec<String>,
    /// the comment after each of those moves (empty where there is none)
    pub comments: Vec<String>,
}

impl GameFacts {
    /// The facts of game `g` before any move is replayed.
    pub fn unplayed(g: &GameText, headers: Vec<(String, String)>, variant: String) -> Self {
        GameFacts {
            index: g.index,
            offset: g.offset,
            headers,
            variant,
            plies: 0,
            end: None,
            claims: Vec::new(),
            error: None,
            start: None,
            last: None,
            end_position: None,
            flag: None,
            nodes: 0,
            cut: false,
            moves: Vec::new(),
            comments: Vec::new(),
        }
    }

    #[must_use]
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The variants replayed: standard chess and Chess960 (the same rules after set-up).
fn variant_of(tags: &[(String, String)]) -> String {
    let v = tags
        .iter()
        .find(|(n, _)| n == "Variant")
        .map_or("", |(_, v)| v.trim());
    match v.to_lowercase().as_str() {
        "chess960" | "chess 960" | "fischerandom" | "fischer random" | "freestyle" => {
            "chess960".into()
        }
        "" | "standard" | "chess" | "from position" => "standard".into(),
        _ => v.to_owned(),
    }
}

/// python-chess's own list of Chess960 names (the board gets Chess960 castling).
fn is_chess960(tags: &[(String, String)]) -> bool {
    tags.iter()
        .find(|(n, _)| n == "Variant")
        .is_some_and(|(_, v)| {
            matches!(
                v.to_lowercase().as_str(),
                "chess960" | "chess 960" | "fischerandom" | "fischerrandom" | "fischer random"
            )
        })
}

/// The rulings on one game.
pub struct Ruler {
    pub opts: Options,
    engine: dead::Engine,
}

impl Ruler {
    #[must_use]
    pub fn new(opts: Options) -> Ruler {
        let engine = dead::Engine::new(opts.dead == DeadMode::Quick);
        Ruler { opts, engine }
    }

    /// Rule on one game's text.
    ///
    /// ```
    /// use _core::game::{Options, Ruler};
    /// use _core::pgn::GameText;
    ///
    /// let text = b"[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n".to_vec();
    /// let game = GameText { index: 1, text, ..GameText::default() };
    /// let facts = Ruler::new(Options::default()).rule(&game);
    /// assert_eq!(facts.plies, 4);
    /// assert_eq!(facts.end.unwrap().article(), "5.1.1"); // checkmate
    /// assert!(facts.error.is_none());
    /// ```
    pub fn rule(&mut self, g: &GameText) -> GameFacts {
        let (headers, mstart) = read_tags(&g.text);
        let variant = variant_of(&headers);
        let mut facts = GameFacts::unplayed(g, headers, variant);
        let pos = match start_of(g, &mut facts) {
            Ok(pos) => pos,
            Err(error) => {
                facts.error = Some(error);
                return facts;
            }
        };
        self.engine.reset();
        let laws = match &self.opts.laws {
            Some(by_date) => (by_date.0)(facts.header("Date")),
            None => GameLaws {
                rule: self.opts.rule,
                fifty: None,
            },
        };
        let mut asked = Questions::new(&self.opts);
        // A dead position stays dead whatever is played, so once a later position of the
        // game is found live (a mate on the board, or one found from the last position),
        // every position before it is live too: the engine's test after every ply could
        // prove none of them dead, and a replay that tests material alone rules alike.
        let mut live_run = None;
        if self.opts.last_position && self.opts.dead != DeadMode::Material && !asked.bounded {
            let cheap = self.replay(&pos, &g.text, mstart, g.offset, &laws, Test::Material);
            asked.first = !flagged(&facts, &cheap);
            let live = match &cheap.end {
                Some(end) => end.kind == EndKind::Checkmate,
                None => asked.live(cheap.h.position()),
            };
            live_run = live.then_some(cheap);
        }
        let known_live = live_run.is_some();
        let mut run = live_run
            .unwrap_or_else(|| self.replay(&pos, &g.text, mstart, g.offset, &laws, Test::PerPly));
        let flagged = flagged(&facts, &run);
        asked.first = !flagged;
        if run.end.is_none()
            && self.opts.last_position
            && !known_live
            && let Some((ply, verdict)) = asked.first_dead(&pos, &run)
        {
            // the game ended at the first position proved dead: replayed again to it
            let key = Key::of(&positions(&pos, &run.moves[..ply as usize]));
            let known = dead::Known { key, verdict };
            run = self.replay(&pos, &g.text, mstart, g.offset, &laws, Test::Known(known));
        }
        if g.unclosed_comment && run.error.is_none() {
            run.error = Some(GameError {
                ply: run.plies + 1,
                message: "a comment opened with '{' is never closed: \
                          the rest of the game cannot be read"
                    .into(),
                offset: g.offset,
            });
        }
        let time_forfeit = self.opts.time_forfeit
            && facts
                .header("Termination")
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("time forfeit"));
        facts.record(run, pos);
        if time_forfeit
            && facts.error.is_none()
            && let Some(last) = &facts.last
        {
            let verdict = facts.end.is_none().then(|| asked.shown(last, !flagged));
            facts.flag = Some(Flag {
                player: flagged,
                verdict,
            });
        }
        facts.nodes = asked.nodes;
        facts.cut = asked.cut;
        facts
    }

    fn replay(
        &mut self,
        pos: &Chess,
        text: &[u8],
        mstart: usize,
        offset: u64,
        laws: &GameLaws,
        test: Test,
    ) -> Replay {
        let mut run = Replay::new(pos.clone(), &self.opts, offset, laws);
        let mut material = dead::Material;
        let mut test = test;
        let test: &mut dyn DeadTest = match (&mut test, self.opts.dead) {
            (Test::Known(k), _) => k,
            (Test::Material, _) | (Test::PerPly, DeadMode::Material) => &mut material,
            (Test::PerPly, _) => &mut self.engine,
        };
        run.begin(test);
        let err = read_main_line(
            text,
            mstart,
            &mut Stepper {
                run: &mut run,
                test,
            },
        );
        if let Some(e) = err
            && run.error.is_none()
        {
            run.error = Some(GameError {
                ply: e.ply,
                message: e.message,
                offset: offset + e.at as u64,
            });
        }
        if run.end.is_none() && run.h.ply() > 0 {
            // the other automatic ends were checked ply by ply
            run.end = checkmate_or_stalemate(&run.h);
        }
        run
    }
}

/// The dead test of a replay.
enum Test {
    /// the options' test after every ply
    PerPly,
    /// insufficient material only
    Material,
    /// the one dead position of the game, found once the whole record was read
    Known(dead::Known),
}

/// The start position of game `g` (the usual one, or its FEN tag's), or why the game
/// cannot be replayed: too long, another variant, a bad FEN, a tag block without moves
/// (then `facts` keep the start). Chess960 castling makes the variant Chess960.
fn start_of(g: &GameText, facts: &mut GameFacts) -> Result<Chess, GameError> {
    let fail = |message: String| GameError {
        ply: 0,
        message,
        offset: g.offset,
    };
    if g.too_long {
        return Err(fail(format!(
            "the game is longer than {} MiB: not read",
            MAX_GAME_BYTES >> 20
        )));
    }
    if facts.variant != "standard" && facts.variant != "chess960" {
        return Err(fail(format!(
            "variant {} is not standard chess or Chess960; not replayed",
            py_repr(&facts.variant)
        )));
    }
    let chess960 = is_chess960(&facts.headers);
    let (pos, c960) = match facts.header("FEN") {
        None => (start(), chess960),
        Some(f) => match from_fen(f, chess960) {
            Ok(p) => p,
            Err(SetupError::Malformed(e)) => {
                return Err(fail(format!("unreadable FEN tag {}: {e}", py_repr(f))));
            }
            Err(SetupError::Illegal { fen, reason }) => {
                return Err(fail(format!("illegal start position {fen}: {reason}")));
            }
        },
    };
    if c960 {
        facts.variant = "chess960".into();
    }
    if let Some(next) = g.tags_only {
        facts.start = Some(pos.clone());
        facts.last = Some(pos);
        return Err(fail(format!(
            "a tag block without moves: the tags from byte {next} on start the next game"
        )));
    }
    Ok(pos)
}

/// Who ran out of time (or lost, or is to move at the end): the last position's test
/// asks their opponent first, since a position is live once one side can mate, the
/// likely winner's mate is found soonest, and the 6.9 question then finds it ready.
fn flagged(facts: &GameFacts, run: &Replay) -> Color {
    match facts.header("Result") {
        Some("1-0") => Color::Black,
        Some("0-1") => Color::White,
        _ => run
            .after
            .as_ref()
            .unwrap_or_else(|| run.h.position())
            .turn(),
    }
}

impl GameFacts {
    /// What the replay `run` from `start` found: plies, moves, claims, the end and the
    /// error, the position where the game ended and the last one.
    fn record(&mut self, run: Replay, start: Chess) {
        self.plies = run.plies;
        self.moves = run.played;
        self.comments = run.comments;
        self.claims = run.claims;
        self.error = run.error;
        // the history stops at the end: the moves after it are played on `after`
        self.end_position = run.end.is_some().then(|| run.h.position().clone());
        self.last = Some(run.after.unwrap_or_else(|| run.h.position().clone()));
        self.end = run.end;
        self.start = Some(start);
    }
}

/// Whether `pos` is the usual start (as 9.2.3 identifies positions), which most games
/// begin from: its key is made once.
fn is_usual_start(pos: &Chess) -> bool {
    static START: std::sync::LazyLock<Key> = std::sync::LazyLock::new(|| Key::of(&start()));
    Key::of(pos) == *START
}

/// The position after `moves` from `start`.
fn positions(start: &Chess, moves: &[Move]) -> Chess {
    let mut p = start.clone();
    for m in moves {
        p.play_unchecked(*m);
    }
    p
}

/// Nodes of the first look at each colour in a question of the last position (see
/// [`Questions::dead`]).
const PROBE_NODES: u64 = 1000;

/// Nodes of each colour's hunt for a mate where the first looks found none (see
/// [`Questions::dead`]): the deep mates of the minor-piece endings of real games take
/// a few tens of thousands.
const HUNT_NODES: u64 = 1 << 16;

/// The engine's full-mode questions on one game, within the caller's bounds, with the
/// nodes they spent.
struct Questions {
    budget: Budget,
    bounded: bool,
    nodes: u64,
    cut: bool,
    /// the colour a dead test asks first
    first: Color,
    /// the answers given, for the question asked again (the last position's)
    answers: Vec<(Key, Color, Verdict)>,
    /// the first looks that ended without an answer
    unanswered: Vec<(Key, Color)>,
    /// the hunts for a mate made, and whether they found one
    hunted: Vec<(Key, bool)>,
}

impl Questions {
    fn new(opts: &Options) -> Questions {
        let deadline = opts
            .engine_seconds
            .map(|s| Instant::now() + Duration::from_secs_f64(s.max(0.0)));
        Questions {
            budget: Budget {
                max_nodes: opts.engine_nodes,
                deadline,
                interrupt: opts.interrupt.clone(),
                ..Budget::default()
            },
            bounded: opts.engine_nodes.is_some() || deadline.is_some(),
            nodes: 0,
            cut: false,
            first: Color::White,
            answers: Vec::new(),
            unanswered: Vec::new(),
            hunted: Vec::new(),
        }
    }

    /// Can `color` still checkmate on `pos`?
    fn ask(&mut self, pos: &Chess, color: Color) -> Verdict {
        let key = Key::of(pos);
        if let Some((_, _, v)) = self
            .answers
            .iter()
            .find(|(k, c, _)| *k == key && *c == color)
        {
            return v.clone();
        }
        let v = unwinnable::can_checkmate(pos, color, Mode::Full, &self.budget);
        self.nodes += v.nodes;
        if self.bounded && v.answer == Answer::Unknown {
            self.cut = true;
        }
        self.answers.push((key, color, v.clone()));
        v
    }

    /// Can `color` still checkmate on `pos`, with a line a person reads?
    fn shown(&mut self, pos: &Chess, color: Color) -> Verdict {
        let mut v = self.ask(pos, color);
        let before = v.nodes;
        unwinnable::readable(pos, &mut v);
        self.nodes += v.nodes - before;
        v
    }

    /// A first look at whether `color` can still checkmate on `pos`: the answer full mode
    /// gives, where it comes within [`PROBE_NODES`], else `None`.
    fn probe(&mut self, pos: &Chess, color: Color) -> Option<Verdict> {
        let key = Key::of(pos);
        if let Some((_, _, v)) = self
            .answers
            .iter()
            .find(|(k, c, _)| *k == key && *c == color)
        {
            return Some(v.clone());
        }
        if self.unanswered.contains(&(key, color)) {
            return None;
        }
        let budget = Budget {
            stop_after: Some(PROBE_NODES),
            ..self.budget.clone()
        };
        let v = unwinnable::can_checkmate(pos, color, Mode::Full, &budget);
        self.nodes += v.nodes;
        // (a question stopped by the probe's bound may yet answer, on a path the
        // question in full would not take: only an answer within the bound is its answer)
        if v.answer == Answer::Unknown || v.nodes > PROBE_NODES {
            self.unanswered.push((key, color));
            return None;
        }
        self.answers.push((key, color, v.clone()));
        Some(v)
    }

    /// Whether `pos` is live as the last position's test finds it first (see
    /// [`Questions::mate_found`]), the usual start without a question. What was tried is
    /// remembered, so that [`Questions::dead`] does not try it again.
    fn live(&mut self, pos: &Chess) -> bool {
        if is_usual_start(pos) {
            // (the usual start is live: see [`Questions::first_dead`])
            return true;
        }
        dead::material_dead(pos).is_none() && self.mate_found(pos)
    }

    /// Whether the first looks at `pos` (`first` first), then the hunt by turns of the
    /// colours they leave open, find a side that can mate: then `pos` is live.
    fn mate_found(&mut self, pos: &Chess) -> bool {
        let mut open = Vec::with_capacity(2);
        for color in [self.first, !self.first] {
            match self.probe(pos, color) {
                Some(v) if !matches!(v.answer, Answer::Cannot(_)) => return true,
                Some(_) => {}
                None => open.push(color),
            }
        }
        self.hunt(pos, &open)
    }

    /// Does one of `colors` find a mate on `pos`, hunting by turns within [`HUNT_NODES`]
    /// each? A mate makes the position live; no mate found proves nothing.
    fn hunt(&mut self, pos: &Chess, colors: &[Color]) -> bool {
        let key = Key::of(pos);
        if let Some(&(_, live)) = self.hunted.iter().find(|(k, _)| *k == key) {
            return live;
        }
        let mut hunts: Vec<unwinnable::Hunt> = colors
            .iter()
            .map(|&c| unwinnable::Hunt::new(pos, c, HUNT_NODES, &self.budget))
            .collect();
        let mut live = hunts.iter().any(|h| h.mate().is_some());
        while !live && hunts.iter().any(unwinnable::Hunt::going) {
            for h in &mut hunts {
                h.round();
                if h.mate().is_some() {
                    live = true;
                    break;
                }
            }
        }
        self.nodes += hunts.iter().map(unwinnable::Hunt::nodes).sum::<u64>();
        self.hunted.push((key, live));
        live
    }

    /// Full mode for both colours (`first` first), stopping at the first that is no proof.
    /// Without bounds, each colour gets a first look before either is asked in full: the
    /// position is live once either side can mate, and where one side's mate is hard to
    /// find (endings of a few minor pieces), the other's is often easy. Where neither look
    /// decides, the undecided colours hunt for a mate by turns before full mode, which
    /// shares its nodes with the visits that prove: a mate found is the same answer, "not
    /// dead", for less.
    fn dead(&mut self, pos: &Chess) -> Option<DeadVerdict> {
        if let Some(v) = dead::material_dead(pos) {
            return Some(v);
        }
        if !self.bounded && self.mate_found(pos) {
            return None;
        }
        let mut proofs = Vec::with_capacity(2);
        for color in [self.first, !self.first] {
            let v = self.ask(pos, color);
            if !matches!(v.answer, Answer::Cannot(_)) {
                return None;
            }
            proofs.push(v);
        }
        let (white, black) = if self.first == Color::White {
            (proofs.remove(0), proofs.remove(0))
        } else {
            let black = proofs.remove(0);
            (proofs.remove(0), black)
        };
        Some(DeadVerdict::Dead {
            white: Box::new(white),
            black: Box::new(black),
        })
    }

    /// Where the last position is proved dead by full mode: the first position, found by
    /// a binary search over the plies, that full mode proves dead (the game ended there,
    /// 5.2.2). A position called live was only not proved dead, so the ply found can be
    /// later than the first dead one, never earlier.
    fn first_dead(&mut self, start: &Chess, run: &Replay) -> Option<(u32, DeadVerdict)> {
        let last = run.h.position();
        if is_usual_start(last) {
            // the usual start is live (a file of empty games would ask it of every game)
            return None;
        }
        let mut found = self.dead(last)?;
        let mut boards = Vec::with_capacity(run.moves.len() + 1);
        let mut p = start.clone();
        boards.push(p.clone());
        for m in &run.moves {
            p.play_unchecked(*m);
            boards.push(p.clone());
        }
        let (mut lo, mut hi) = (0usize, boards.len() - 1);
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.dead(&boards[mid]) {
                None => lo = mid + 1,
                Some(v) => {
                    hi = mid;
                    found = v;
                }
            }
        }
        Some((hi as u32, found))
    }
}

/// One pass over a game's main line.
struct Replay {
    h: History,
    /// the position once the game has ended (the record goes on: replayed, not ruled on)
    after: Option<Chess>,
    end: Option<End>,
    claims: Vec<Claim>,
    collect: bool,
    first_only: bool,
    seen: Vec<(Color, bool)>,
    /// the moves up to the end (for the binary search over the plies)
    moves: Vec<Move>,
    plies: u32,
    error: Option<GameError>,
    /// half-moves for a fifty-move claim, or the count of the Laws of the game's date
    /// by position (asked once a run, when it nears `fifty`, the least count there is)
    fifty: u32,
    count: Option<Count>,
    counted: Option<(u32, u32)>,
    rule: EndRule,
    offset: u64,
    /// every move played, in UCI, and the comment after it, when the caller keeps them
    played: Vec<String>,
    comments: Vec<String>,
    record: bool,
}

impl Replay {
    fn new(pos: Chess, opts: &Options, offset: u64, laws: &GameLaws) -> Replay {
        Replay {
            h: History::batch(pos),
            after: None,
            end: None,
            claims: Vec::new(),
            collect: opts.claims != ClaimMode::None,
            first_only: opts.claims == ClaimMode::First,
            seen: Vec::new(),
            moves: Vec::with_capacity(128),
            plies: 0,
            error: None,
            fifty: opts.fifty,
            count: laws.fifty.clone(),
            counted: None,
            rule: laws.rule,
            offset,
            played: Vec::new(),
            comments: Vec::new(),
            record: opts.record,
        }
    }

    fn add(&mut self, found: Vec<Claim>) {
        for c in found {
            if self.first_only {
                let tag = (c.player, c.article.is_repetition());
                if self.seen.contains(&tag) {
                    continue;
                }
                self.seen.push(tag);
            }
            self.claims.push(c);
        }
    }

    /// The half-moves a fifty-move claim needs in the current run (a run without capture
    /// or pawn move keeps its material, which decided the count under some Laws).
    fn limit(&mut self) -> u32 {
        let Some(count) = &self.count else {
            return self.fifty;
        };
        let run = self.h.window_start();
        match self.counted {
            Some((at, limit)) if at == run => limit,
            _ => {
                let limit = count(self.h.position());
                self.counted = Some((run, limit));
                limit
            }
        }
    }

    /// The start position: a position of the standard start with its clock below the
    /// claim count has no end and allows no claim.
    fn begin(&mut self, test: &mut dyn DeadTest) {
        if self.h.halfmoves() + 1 < self.fifty && is_usual_start(self.h.position()) {
            return;
        }
        self.end = self.end_here(None, test);
        if self.end.is_some() {
            // the game is over before its first move: the record is replayed, not ruled on
            self.after = Some(self.h.position().clone());
        } else if self.collect {
            let mut found = Vec::new();
            threefold_claims(&self.h, &mut found);
            let limit = self.limit();
            fifty_claims(&self.h, limit, &mut found);
            self.add(found);
        }
    }

    /// The automatic end at the current ply (mate prevails), given the dead test's answer.
    fn end_here(&self, dead: Option<Option<DeadVerdict>>, test: &mut dyn DeadTest) -> Option<End> {
        if let Some(e) = checkmate_or_stalemate(&self.h) {
            return Some(e);
        }
        let verdict = match dead {
            Some(v) => v,
            None => test.test(self.h.position()),
        };
        if let Some(v) = verdict {
            let kind = match v {
                DeadVerdict::Material(m) => EndKind::InsufficientMaterial(m),
                other => EndKind::DeadPosition(Box::new(other)),
            };
            let ply = self.h.ply();
            return Some(End {
                ply,
                kind,
                plies: vec![ply],
                mover: self.h.position().turn(),
                count: 0,
            });
        }
        match self.rule {
            EndRule::All => crate::rules::fivefold(&self.h).or_else(|| seventyfive_moves(&self.h)),
            EndRule::PositionOnly => None,
        }
    }

    fn step(&mut self, m: Move, test: &mut dyn DeadTest) {
        let n = self.h.push(m);
        self.moves.push(m);
        let clock = self.h.halfmoves();
        let dead = test.test(self.h.position());
        if n >= 5 || clock >= 150 || dead.is_some() {
            self.end = self.end_here(Some(dead), test);
            if self.end.is_some() {
                self.moves = Vec::new();
                self.after = Some(self.h.position().clone());
                return;
            }
        }
        if self.collect {
            let mut found = Vec::new();
            if n >= 3 || !self.h.doubles().is_empty() {
                threefold_claims(&self.h, &mut found);
            }
            if clock + 1 >= self.fifty {
                let limit = self.limit();
                if clock + 1 >= limit {
                    fifty_claims(&self.h, limit, &mut found);
                }
            }
            if !found.is_empty() {
                self.add(found);
            }
        }
    }
}

struct Stepper<'a> {
    run: &'a mut Replay,
    test: &'a mut dyn DeadTest,
}

impl MainLine for Stepper<'_> {
    fn comment(&mut self, text: &[u8]) {
        // python-chess joins the comments after one move with a space
        if let Some(last) = self.run.comments.last_mut() {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(decode(text).trim());
        }
    }

    fn san(&mut self, san: &[u8], at: usize) -> ControlFlow<()> {
        let run = &mut *self.run;
        let pos = run.after.as_ref().unwrap_or_else(|| run.h.position());
        match parse_san_bytes(pos, san) {
            Err(e) => {
                run.error = Some(GameError {
                    ply: run.plies + 1,
                    message: e.0,
                    offset: run.offset + at as u64,
                });
                ControlFlow::Break(())
            }
            Ok(m) => {
                run.plies += 1;
                if run.record {
                    run.played.push(m.to_uci(pos.castles().mode()).to_string());
                    run.comments.push(String::new());
                }
                match run.after.as_mut() {
                    Some(p) => p.play_unchecked(m),
                    None => run.step(m, self.test),
                }
                ControlFlow::Continue(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::Splitter;

    fn rule(pgn: &str, opts: Options) -> Vec<GameFacts> {
        let mut r = Ruler::new(opts);
        Splitter::new(pgn.as_bytes(), 0, None, 1)
            .map(|g| r.rule(&g.unwrap()))
            .collect()
    }

    #[test]
    fn checkmate_and_errors() {
        let f = rule(
            "1. f3 e5 2. g4 Qh4# 0-1\n\n1. e4 e5 2. Kf3 *\n",
            Options::default(),
        );
        assert_eq!(f[0].end.as_ref().unwrap().kind, EndKind::Checkmate);
        assert_eq!(f[0].plies, 4);
        let e = f[1].error.as_ref().unwrap();
        assert_eq!((e.ply, f[1].plies), (3, 2));
        assert!(e.message.starts_with("illegal san: 'Kf3' in "));
        assert_eq!(e.offset, 25 + 12);
    }

    #[test]
    fn claims_and_repetition() {
        let f = rule(
            "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n",
            Options::default(),
        );
        let c: Vec<_> = f[0]
            .claims
            .iter()
            .map(|c| (c.ply, c.article.text()))
            .collect();
        assert_eq!(c, vec![(7, "9.2.1"), (8, "9.2.2"), (8, "9.2.1")]);
        let moves = " Nf3 Nf6 Ng1 Ng8".repeat(5);
        let f = rule(&format!("{moves} e4 *\n"), Options::default());
        let end = f[0].end.as_ref().unwrap();
        assert_eq!(
            (end.kind.clone(), end.ply, f[0].plies),
            (EndKind::FivefoldRepetition, 16, 21)
        );
    }

    #[test]
    fn an_end_before_the_first_move_stands() {
        let pgn =
            "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 150 80\"]\n\nNf3 *\n";
        let f = rule(pgn, Options::default());
        let end = f[0].end.as_ref().unwrap();
        assert_eq!(
            (end.kind.clone(), end.ply, f[0].plies),
            (EndKind::SeventyFiveMoves, 0, 1)
        );
    }

    #[test]
    fn the_start_or_why_there_is_none() {
        let start_of_text = |text: &str| {
            let g = Splitter::new(text.as_bytes(), 0, None, 1)
                .next()
                .unwrap()
                .unwrap();
            let (headers, _) = read_tags(&g.text);
            let mut facts = GameFacts::unplayed(&g, headers.clone(), variant_of(&headers));
            start_of(&g, &mut facts).map_err(|e| e.message)
        };
        assert!(start_of_text("1. e4 *\n").is_ok());
        let bad = start_of_text("[FEN \"8/8/8 w - - 0 1\"]\n\n*\n").unwrap_err();
        assert!(
            bad.starts_with("unreadable FEN tag '8/8/8 w - - 0 1'"),
            "{bad}"
        );
        let other = start_of_text("[Variant \"Crazyhouse\"]\n\n1. e4 *\n").unwrap_err();
        assert!(other.contains("not standard chess"), "{other}");
    }

    #[test]
    fn the_usual_start_asks_the_engine_nothing() {
        let f = rule("[Event \"?\"]\n\n*\n\n1. e4 *\n", Options::default());
        assert_eq!((f[0].plies, f[0].nodes), (0, 0));
        assert!(f[1].nodes > 0, "a last position is asked about");
    }

    #[test]
    fn the_last_position_asks_the_easier_side_too() {
        // a draw whose side to move, White, would make Black's question the first, and
        // Black's mate (a bishop against a pawn) takes a long search; White's is found at
        // once: the position is live either way, at a small part of the cost
        let pgn = "[Result \"1/2-1/2\"]\n[FEN \"8/8/5k2/8/P3bK2/8/8/8 w - - 0 66\"]\n\n1/2-1/2\n";
        let f = rule(pgn, Options::default());
        assert!(f[0].end.is_none());
        assert!(f[0].nodes < 10_000, "{}", f[0].nodes);
        let bounded = rule(
            pgn,
            Options {
                engine_nodes: Some(1_000_000),
                ..Options::default()
            },
        );
        assert!(bounded[0].end.is_none());
        assert!(bounded[0].nodes > 100_000, "{}", bounded[0].nodes);
    }

    #[test]
    fn a_live_last_position_spares_the_per_ply_test() {
        // a queen behind a wall of rammed pawns: a position the per-ply test looks at,
        // in a game whose last position is live (the queen mates, with help)
        let pgn = "[FEN \"4k3/8/8/1p1p1p1p/1P1P1P1P/8/8/Q3K3 w - - 0 1\"]\n\n\
                   1. Ke2 Ke7 2. Ke1 Ke8 *\n";
        let mut r = Ruler::new(Options::default());
        let g = Splitter::new(pgn.as_bytes(), 0, None, 1)
            .next()
            .unwrap()
            .unwrap();
        let f = r.rule(&g);
        assert!(
            f.end.is_none() && f.nodes > 0,
            "the last position was asked about"
        );
        assert_eq!(r.engine.looks(), 0);
        // with a budget the per-ply test runs, and looks at these positions
        let mut r = Ruler::new(Options {
            engine_nodes: Some(unwinnable::FULL_NODES),
            ..Options::default()
        });
        assert!(r.rule(&g).end.is_none());
        assert!(r.engine.looks() > 0);
    }

    #[test]
    fn the_last_position_hunts_a_deep_mate() {
        // K+B v K+N from a real game: neither side's mate comes within the first looks,
        // and full mode shares its nodes with the visits that prove; the hunt by turns
        // finds a mate (live) for a fraction of them
        let pgn = "[Result \"0-1\"]\n[FEN \"8/8/2N5/6k1/8/3bK3/8/8 w - - 0 78\"]\n\n0-1\n";
        let f = rule(pgn, Options::default());
        assert!(f[0].end.is_none());
        let full = rule(
            pgn,
            Options {
                engine_nodes: Some(unwinnable::FULL_NODES),
                ..Options::default()
            },
        );
        assert!(full[0].end.is_none());
        assert!(
            f[0].nodes * 4 < full[0].nodes,
            "{} {}",
            f[0].nodes,
            full[0].nodes
        );
    }

    #[test]
    fn time_forfeit_against_a_bare_king() {
        let pgn = "[Result \"0-1\"]\n[Termination \"Time forfeit\"]\n[FEN \"8/8/4k3/8/8/Q2K4/8/8 w - - 0 1\"]\n\n0-1\n";
        let f = rule(pgn, Options::default());
        let flag = f[0].flag.as_ref().unwrap();
        assert_eq!(flag.player, Color::White);
        assert!(matches!(
            flag.verdict.as_ref().unwrap().answer,
            Answer::Cannot(_)
        ));
    }
}
