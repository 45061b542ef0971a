//! Semi-static reachability: which pieces can never move again, and which
//! squares every other piece could ever stand on or attack.
//!
//! The analysis over-approximates, so it is *sound for negative claims*: if it
//! says "the piece on b4 never moves" or "the black king can never reach e4",
//! that holds in every sequence of legal moves from the position.
//!
//! Method (greatest fixed points around a least one):
//!
//! 1. Assume every piece *frozen* (it never moves and is never captured) and
//!    every other pawn *confined* (it never captures and is never captured, so
//!    it stays on its file and never passes an opposing confined pawn on it).
//!    A cheap bitboard pass first drops every piece with a move of its own.
//! 2. With the frozen pieces as permanent walls, compute for every other piece
//!    the squares it could ever occupy (a flood fill of its moves, unfrozen
//!    pieces treated as absent) and those it could ever move or capture onto.
//!    A king never steps onto a square attacked, in a way no piece can ever
//!    block, by a frozen enemy piece. A pawn captures only onto squares where
//!    an enemy piece other than the king may stand (a least fixed point over
//!    all pawns); a pawn that can reach its last rank then moves as a queen and
//!    a knight. When one side's pieces other than the king are all frozen and
//!    its king has at most two squares, the other king keeps away from them
//!    (stepping next to them ends the game: [`boxed_squares`]).
//! 3. Drop every frozen piece that could move or be captured, and every
//!    confined pawn that could capture, be captured or promote. Repeat from 2
//!    until nothing is dropped.
//!
//! The sets are then self-consistent: by induction on the moves of any legal
//! sequence, no frozen piece ever moves or is captured and no confined pawn
//! ever captures or is captured, so every piece stays inside its reach.
//! Reaches, attacks and king regions only grow from round to round, which lets
//! a caller stop early on a monotone criterion.

use shakmaty::{Board, Chess, Color, Position, Role, Square, attacks};

use super::bits::{
    ALL, NOT_A, NOT_H, RANK_1, RANK_3, RANK_6, RANK_8, bit, ci, forward, king, king_spread, knight,
    knight_spread, pawn_spread, slide_attacks, slider, squares,
};

/// What one piece that may move can ever do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mobility {
    /// Squares it may occupy.
    pub reach: u64,
    /// Squares it may move or capture onto.
    pub hits: u64,
    /// Squares it may ever attack.
    pub attacks: u64,
    /// A pawn that may promote.
    pub promotes: bool,
}

/// The result of [`analyse`]; arrays by colour are `[black, white]`.
pub struct Analysis<'a> {
    pub board: &'a Board,
    /// The pieces that never move nor get captured.
    pub frozen: u64,
    /// The pawns that never capture nor get captured.
    pub confined: u64,
    /// Squares the pieces of each side other than the king may ever attack
    /// (so far, while [`analyse`] runs).
    pub attacks: [u64; 2],
    /// By square, for each piece that may move.
    pub mobility: [Option<Mobility>; 64],
    /// Squares attacked by frozen pieces in a way nothing can ever block.
    pub fixed_attacks: [u64; 2],
    /// Squares each king may ever stand on.
    pub king_region: [u64; 2],
    /// The squares of a king boxed in while the other king was kept away.
    pub boxed: [u64; 2],
}

impl Analysis<'_> {
    /// Squares the piece starting on `s` may ever attack.
    pub fn attacks_of(&self, s: u32) -> u64 {
        match self.mobility[s as usize] {
            Some(m) => m.attacks,
            None => frozen_attacks(self.board, s, self.frozen, true),
        }
    }
}

fn role(b: &Board, s: u32) -> Option<Role> {
    b.role_at(Square::new(s))
}

fn is_white(b: &Board, s: u32) -> bool {
    b.white().0 & bit(s) != 0
}

fn side(b: &Board, white: bool) -> u64 {
    if white { b.white().0 } else { b.black().0 }
}

fn slides(r: Role) -> (bool, bool) {
    match r {
        Role::Bishop => (true, false),
        Role::Rook => (false, true),
        _ => (true, true),
    }
}

/// Flood fill of a slider and/or knight: (squares reachable, squares hit).
/// `walls` are never entered (but are hit: a capture of a wall piece).
fn piece_flood(start: u64, walls: u64, diagonal: bool, straight: bool, leaps: bool) -> (u64, u64) {
    let (mut reach, mut frontier, mut hits) = (start, start, 0);
    let empty = !walls;
    while frontier != 0 {
        let mut new = 0;
        if diagonal || straight {
            new = slide_attacks(frontier, empty, diagonal, straight);
        }
        if leaps {
            new |= knight_spread(frontier);
        }
        hits |= new;
        frontier = new & empty & !reach;
        reach |= frontier;
    }
    (reach, hits)
}

/// Squares attacked by the piece on `s` if it stays there: with `blockable`
/// every slider ray up to the first wall, else only what nothing can ever
/// interpose (leaps, pawn and king attacks, adjacent slider squares).
pub fn frozen_attacks(b: &Board, s: u32, walls: u64, blockable: bool) -> u64 {
    match role(b, s) {
        None => 0,
        Some(Role::Pawn) => pawn_spread(bit(s), is_white(b, s)),
        Some(Role::Knight) => knight(s),
        Some(Role::King) => king(s),
        Some(r) => {
            let (d, st) = slides(r);
            let t = slider(s, d, st, walls);
            if blockable { t } else { t & king(s) }
        }
    }
}

/// Pawn moves from `start` through non-walls: pushes, double steps and, with
/// `prey`, diagonal moves onto it. (reach, diagonal squares hit); stops on the
/// last rank.
fn pawn_flood(start: u64, white: bool, walls: u64, prey: Option<u64>) -> (u64, u64) {
    let last = if white { RANK_8 } else { RANK_1 };
    let third = if white { RANK_3 } else { RANK_6 };
    let (mut reach, mut hits) = (start, 0);
    let mut frontier = start & !last;
    while frontier != 0 {
        let mut push = forward(frontier, white) & !walls;
        push |= forward(push & third, white) & !walls;
        let caps = pawn_spread(frontier, white);
        hits |= caps;
        if let Some(prey) = prey {
            push |= caps & prey & !walls;
        }
        let new = push & !reach;
        reach |= new;
        frontier = new & !last;
    }
    (reach, hits)
}

/// Squares of its own file a pawn on `s` can never push into: from the
/// nearest of `blockers` ahead of it onwards (opposing pawns that never capture
/// nor get captured, so the two never pass).
pub fn push_stop(s: u32, white: bool, blockers: u64) -> u64 {
    let file = super::bits::FILE_A << (s & 7);
    if white {
        let above = if s == 63 { 0 } else { ALL << (s + 1) };
        let ahead = blockers & file & above;
        if ahead == 0 {
            0
        } else {
            file & (ALL << ahead.trailing_zeros())
        }
    } else {
        let below = (1u64 << s) - 1;
        let ahead = blockers & file & below;
        if ahead == 0 {
            0
        } else {
            file & (ALL >> ahead.leading_zeros())
        }
    }
}

/// Where a pawn may go: along its file (never into `stop`), then unless
/// `confined` by diagonal moves onto `prey` and on from there; a pawn that can
/// reach its last rank then moves as a queen and a knight.
fn pawn_mobility(
    s: u32,
    white: bool,
    walls: u64,
    prey: u64,
    stop: u64,
    confined: bool,
) -> Mobility {
    let last = if white { RANK_8 } else { RANK_1 };
    let (mut reach, mut hits) = pawn_flood(bit(s), white, walls | stop, None);
    if !confined {
        let entry = pawn_spread(reach & !last, white) & prey & !walls;
        if entry != 0 {
            let (more, more_hits) = pawn_flood(entry, white, walls, Some(prey));
            reach |= more;
            hits |= more_hits;
        }
    }
    let attacks = pawn_spread(reach & !last, white);
    let promoted = reach & last;
    if promoted == 0 {
        return Mobility {
            reach,
            hits,
            attacks,
            promotes: false,
        };
    }
    let (q_reach, q_hits) = piece_flood(promoted, walls, true, true, true);
    Mobility {
        reach: reach | q_reach,
        hits: hits | q_hits,
        attacks: attacks | q_hits,
        promotes: true,
    }
}

/// King flood fill: never onto a wall or a square in `forbidden`.
fn king_mobility(s: u32, walls: u64, forbidden: u64) -> Mobility {
    let mut reach = bit(s);
    let mut frontier = reach;
    let blocked = walls | forbidden;
    while frontier != 0 {
        frontier = king_spread(frontier) & !blocked & !reach;
        reach |= frontier;
    }
    let spread = king_spread(reach);
    Mobility {
        reach,
        hits: spread & !forbidden,
        attacks: spread,
        promotes: false,
    }
}

fn mobility(b: &Board, s: u32, walls: u64, fixed: &[u64; 2]) -> Mobility {
    let white = is_white(b, s);
    match role(b, s) {
        Some(Role::Pawn) => pawn_mobility(s, white, walls, ALL, 0, false),
        Some(Role::King) => king_mobility(s, walls, fixed[usize::from(!white)]),
        Some(Role::Knight) => {
            let (reach, hits) = piece_flood(bit(s), walls, false, false, true);
            Mobility {
                reach,
                hits,
                attacks: hits,
                promotes: false,
            }
        }
        Some(r) => {
            let (d, st) = slides(r);
            let (reach, hits) = piece_flood(bit(s), walls, d, st, false);
            Mobility {
                reach,
                hits,
                attacks: hits,
                promotes: false,
            }
        }
        None => Mobility::default(),
    }
}

/// Can the piece on `s` not move, the frozen pieces staying? (Its captures of
/// unfrozen enemies are checked globally.)
fn locally_stuck(b: &Board, s: u32, frozen: u64, own_frozen: u64, enemy_fixed: u64) -> bool {
    match role(b, s) {
        Some(Role::Pawn) => {
            let ahead = if is_white(b, s) {
                s + 8
            } else {
                s.wrapping_sub(8)
            };
            ahead < 64 && frozen & bit(ahead) != 0
        }
        Some(Role::King) => king(s) & !(own_frozen | enemy_fixed) == 0,
        Some(Role::Knight) => knight(s) & !own_frozen == 0,
        Some(r) => {
            let (d, st) = slides(r);
            slider(s, d, st, frozen) & !own_frozen == 0
        }
        None => true,
    }
}

fn fixed_attacks(b: &Board, frozen: u64) -> [u64; 2] {
    let mut out = [0; 2];
    for white in [false, true] {
        let mine = frozen & side(b, white);
        out[usize::from(white)] = pawn_spread(mine & b.pawns().0, white);
        for s in squares(mine & !b.pawns().0) {
            out[usize::from(white)] |= frozen_attacks(b, s, frozen, false);
        }
    }
    out
}

const ORTHO: [(i32, u64); 4] = [(8, ALL), (-8, ALL), (1, NOT_A), (-1, NOT_H)];
const DIAG: [(i32, u64); 4] = [(9, NOT_A), (7, NOT_H), (-7, NOT_A), (-9, NOT_H)];

/// The subset of `pieces` with a `free` neighbour in one of `directions`.
fn stepping(pieces: u64, free: u64, directions: &[(i32, u64); 4]) -> u64 {
    let mut out = 0;
    for &(shift, mask) in directions {
        if shift > 0 {
            out |= (((pieces << shift) & mask) & free) >> shift;
        } else {
            out |= (((pieces >> -shift) & mask) & free) << -shift;
        }
    }
    out & pieces
}

/// One round of [`local_pass`]: still a superset of the final frozen set.
fn local_step(b: &Board, mut frozen: u64) -> u64 {
    let (white, black) = (b.white().0, b.black().0);
    let pawns = b.pawns().0;
    frozen &= !(pawns & white & !(frozen >> 8));
    frozen &= !(pawns & black & !(frozen << 8));
    let straight = b.rooks_and_queens().0;
    let diagonal = b.bishops_and_queens().0;
    for own_side in [white, black] {
        let own = frozen & own_side;
        let free = !own;
        let mut mobile = 0;
        if own & straight != 0 {
            mobile |= stepping(own & straight, free, &ORTHO);
        }
        if own & diagonal != 0 {
            mobile |= stepping(own & diagonal, free, &DIAG);
        }
        for n in squares(own & b.knights().0) {
            if knight(n) & free != 0 {
                mobile |= bit(n);
            }
        }
        frozen &= !mobile;
    }
    let kings = b.kings().0;
    if frozen & kings != 0 {
        let fixed = fixed_attacks(b, frozen);
        for k in squares(frozen & kings) {
            let w = white & bit(k) != 0;
            if !locally_stuck(b, k, frozen, frozen & side(b, w), fixed[usize::from(!w)]) {
                frozen &= !bit(k);
            }
        }
    }
    frozen
}

/// Drop from `frozen` every piece with a move of its own while the others stay.
fn local_pass(b: &Board, mut frozen: u64) -> u64 {
    loop {
        let before = frozen;
        frozen = local_step(b, frozen);
        if frozen == before {
            return frozen;
        }
    }
}

/// Cheap under-approximations of what [`analyse`] finds: the region of the
/// king of `!color` and the squares attacked by the queens, rooks and knights
/// of `color` (one local round as walls: a superset of the frozen pieces).
/// `enough(region, attacks)` is asked after each piece and ends the work.
pub fn lower_bounds(b: &Board, color: Color, enough: impl Fn(u64, u64) -> bool) -> (u64, u64) {
    let walls = local_step(b, b.occupied().0);
    let fixed = fixed_attacks(b, walls);
    let Some(k) = b.king_of(!color) else {
        return (0, 0);
    };
    let k = u32::from(k);
    let region = if walls & bit(k) != 0 {
        bit(k)
    } else {
        king_mobility(k, walls, fixed[ci(color)]).reach
    };
    let mut attacks = 0;
    let mine = b.by_color(color).0 & !walls;
    for s in squares(mine & b.queens().0) {
        attacks |= piece_flood(bit(s), walls, true, true, false).1;
        if enough(region, attacks) {
            return (region, attacks);
        }
    }
    for s in squares(mine & b.rooks().0) {
        attacks |= piece_flood(bit(s), walls, false, true, false).1;
        if enough(region, attacks) {
            return (region, attacks);
        }
    }
    let knights = mine & b.knights().0;
    if knights != 0 {
        attacks |= piece_flood(knights, walls, false, false, true).1;
    }
    (region, attacks)
}

/// Could the frozen piece on `s` move or be captured, given where each
/// side's unfrozen non-king pieces may be (`prey`) and move or capture (`hits`)?
fn can_leave(
    b: &Board,
    s: u32,
    frozen: u64,
    fixed: &[u64; 2],
    prey: &[u64; 2],
    hits: &[u64; 2],
) -> bool {
    let white = is_white(b, s);
    let them = usize::from(!white);
    if !locally_stuck(b, s, frozen, frozen & side(b, white), fixed[them]) {
        return true;
    }
    match role(b, s) {
        Some(Role::King) => false,
        _ if hits[them] & bit(s) != 0 => true,
        Some(Role::Pawn) => {
            let enemies = prey[them] | (frozen & side(b, !white) & !b.kings().0);
            pawn_spread(bit(s), white) & enemies != 0
        }
        _ => false,
    }
}

/// The squares next to (or in) the box of `loser`'s king: its pieces other
/// than the king never move (`frozen`), it has no castling right, and its king
/// may only ever stand on the at most two squares of `region`. Whenever it is
/// to move it can only shuffle its king inside the box, so if the other king
/// stands next to the box square it must go to, it has no legal move and the
/// game is over: the other king never *plays on* from there. Else 0.
fn boxed_squares(pos: &Chess, loser: Color, frozen: u64, region: u64) -> u64 {
    let b = pos.board();
    if pos.castles().castling_rights().any() || region.count_ones() > 2 {
        return 0;
    }
    if b.by_color(loser).0 & !b.kings().0 & !frozen != 0 {
        return 0;
    }
    king_spread(region)
}

/// Could `winner`'s king, from a square of `king_reach`, step onto a square of
/// `terminal` (not next to the loser's king) and uncover a line to the loser's
/// king? An over-approximation: any slider of the matching kind (or a pawn
/// that may still promote) counts; only frozen pieces block.
fn discovery_possible(
    b: &Board,
    winner: Color,
    frozen: u64,
    king_reach: u64,
    terminal: u64,
    loser_region: u64,
) -> bool {
    let mine = b.by_color(winner).0;
    let pawns = mine & b.pawns().0 & !frozen;
    let diagonal = mine & b.bishops_and_queens().0 != 0 || pawns != 0;
    let straight = mine & b.rooks_and_queens().0 != 0 || pawns != 0;
    for s in squares(king_reach & king_spread(terminal)) {
        let steps = king(s) & terminal;
        for x in squares(loser_region) {
            if steps & !king_spread(bit(x)) == 0 {
                continue; // every step lands next to the loser's king
            }
            if super::bits::king_distance(s, x) < 2 {
                continue;
            }
            let (sq_s, sq_x) = (Square::new(s), Square::new(x));
            if attacks::ray(sq_s, sq_x).is_empty() {
                continue;
            }
            let is_diagonal = (s & 7) != (x & 7) && (s >> 3) != (x >> 3);
            if !(if is_diagonal { diagonal } else { straight }) {
                continue;
            }
            if attacks::between(sq_s, sq_x).0 & frozen != 0 {
                continue; // a piece that never moves blocks the line for good
            }
            return true;
        }
    }
    false
}

/// Compute the frozen pieces and every other piece's mobility. The kings'
/// regions come first, then the pieces of `first` (queens, rooks, knights,
/// bishops, pawns), then the others; `stop(analysis, square)` is asked after
/// each (`None` at the end of a round) and may abort (then `None`). The
/// position must have one king each and no pending en passant capture.
pub fn analyse<'a>(
    pos: &'a Chess,
    mut stop: impl FnMut(&Analysis<'a>, Option<u32>) -> bool,
    first: Color,
) -> Option<Analysis<'a>> {
    let b = pos.board();
    let kings = [
        u32::from(b.king_of(Color::Black)?),
        u32::from(b.king_of(Color::White)?),
    ];
    let pawns = b.pawns().0;
    let mut frozen = local_pass(b, b.occupied().0);
    let mut confined = pawns & !frozen;
    let order = piece_order(b, first);
    loop {
        let mut result = Analysis::frozen_only(b, frozen);
        let mut hits = [0u64; 2];
        king_regions(pos, &mut result, kings, &mut hits);
        let mut prey = [0u64; 2]; // where a non-king piece of each side may be
        for &s in &order {
            if (frozen | pawns) & bit(s) != 0 {
                continue;
            }
            let c = usize::from(is_white(b, s));
            let mob = mobility(b, s, frozen, &result.fixed_attacks);
            add(&mut result, &mut prey, &mut hits, s, c, mob);
            if stop(&result, Some(s)) {
                return None;
            }
        }
        let pawns_moved = pawn_reach(
            &mut result,
            &order,
            confined,
            &mut prey,
            &mut hits,
            &mut stop,
        );
        if !pawns_moved || stop(&result, None) {
            return None;
        }
        let (dropped, released) = loosened(&result, confined, &prey, &hits);
        if dropped == 0 && released == 0 {
            result.confined = confined;
            return Some(result);
        }
        frozen &= !dropped;
        confined = (confined & !released) | (dropped & pawns);
    }
}

/// The order in which [`analyse`] looks at the pieces: those of `first` (queens, rooks,
/// knights, bishops, pawns), then the others.
fn piece_order(b: &Board, first: Color) -> Vec<u32> {
    let mut order: Vec<u32> = Vec::with_capacity(32);
    for color in [first, !first] {
        let own = b.by_color(color).0;
        for mask in [
            b.queens().0,
            b.rooks().0,
            b.knights().0,
            b.bishops().0,
            b.pawns().0,
        ] {
            order.extend(squares(mask & own));
        }
    }
    order
}

impl<'a> Analysis<'a> {
    /// A round of [`analyse`] before any piece that may move is looked at: what the
    /// `frozen` pieces attack.
    fn frozen_only(b: &'a Board, frozen: u64) -> Analysis<'a> {
        let mut result = Analysis {
            board: b,
            frozen,
            confined: 0,
            attacks: [0; 2],
            mobility: [None; 64],
            fixed_attacks: fixed_attacks(b, frozen),
            king_region: [0; 2],
            boxed: [0; 2],
        };
        for s in squares(frozen & !b.kings().0) {
            result.attacks[usize::from(is_white(b, s))] |= frozen_attacks(b, s, frozen, true);
        }
        result
    }
}

/// Each king's region (`kings` by colour, `[black, white]`), then, where a king is boxed
/// in on at most two squares while the other cannot come next to the box, the smaller
/// regions that follows.
fn king_regions(pos: &Chess, result: &mut Analysis<'_>, kings: [u32; 2], hits: &mut [u64; 2]) {
    let b = pos.board();
    let (frozen, fixed) = (result.frozen, result.fixed_attacks);
    for c in [1, 0] {
        let k = kings[c];
        if frozen & bit(k) != 0 {
            result.king_region[c] = bit(k);
            continue;
        }
        let mob = king_mobility(k, frozen, fixed[1 - c]);
        result.mobility[k as usize] = Some(mob);
        result.king_region[c] = mob.reach;
        hits[c] = mob.hits;
    }
    for c in [1, 0] {
        // a king boxed in on at most two squares: the other king never
        // plays on from next to the box
        let color = if c == 1 { Color::White } else { Color::Black };
        let k = kings[c];
        let terminal = boxed_squares(pos, !color, frozen, result.king_region[1 - c]);
        if terminal == 0 || (frozen | terminal) & bit(k) != 0 {
            continue;
        }
        let mob = king_mobility(k, frozen, fixed[1 - c] | terminal);
        if discovery_possible(
            b,
            color,
            frozen,
            mob.reach,
            terminal,
            result.king_region[1 - c],
        ) {
            continue;
        }
        result.mobility[k as usize] = Some(mob);
        result.king_region[c] = mob.reach;
        hits[c] = mob.hits;
        result.boxed[1 - c] = result.king_region[1 - c];
    }
}

/// The pawns that may move: they capture only where an enemy piece may be, so their
/// reach grows to a least fixed point. False when `stop` aborts.
fn pawn_reach<'a>(
    result: &mut Analysis<'a>,
    order: &[u32],
    confined: u64,
    prey: &mut [u64; 2],
    hits: &mut [u64; 2],
    stop: &mut impl FnMut(&Analysis<'a>, Option<u32>) -> bool,
) -> bool {
    let b = result.board;
    let frozen = result.frozen;
    let free_pawns: Vec<u32> = order
        .iter()
        .copied()
        .filter(|&s| b.pawns().0 & !frozen & bit(s) != 0)
        .collect();
    let mut reach = [0u64; 64];
    let mut grown = true;
    while grown {
        grown = false;
        for &s in &free_pawns {
            let white = is_white(b, s);
            let c = usize::from(white);
            let stop_sq = push_stop(s, white, confined & side(b, !white));
            let mob = pawn_mobility(
                s,
                white,
                frozen,
                prey[1 - c],
                stop_sq,
                confined & bit(s) != 0,
            );
            if mob.reach == reach[s as usize] {
                continue;
            }
            grown = true;
            reach[s as usize] = mob.reach;
            add(result, prey, hits, s, c, mob);
            if stop(result, Some(s)) {
                return false;
            }
        }
    }
    true
}

/// What the round's assumptions got wrong: the frozen pieces that can leave after all,
/// and the confined pawns that may capture or be captured.
fn loosened(result: &Analysis<'_>, confined: u64, prey: &[u64; 2], hits: &[u64; 2]) -> (u64, u64) {
    let b = result.board;
    let frozen = result.frozen;
    let mut dropped = 0;
    for s in squares(frozen) {
        if can_leave(b, s, frozen, &result.fixed_attacks, prey, hits) {
            dropped |= bit(s);
        }
    }
    let mut released = 0;
    for s in squares(confined) {
        let white = is_white(b, s);
        let c = usize::from(white);
        let Some(mob) = result.mobility[s as usize] else {
            continue;
        };
        let enemies = prey[1 - c] | (frozen & side(b, !white) & !b.kings().0);
        if mob.promotes
            || mob.reach & hits[1 - c] != 0
            || pawn_spread(mob.reach, white) & enemies != 0
        {
            released |= bit(s);
        }
    }
    (dropped, released)
}

/// The pieces (not pawns, not the loser's king) a search for a mate by
/// `winner` may hold still: the winner's that can never attack nor stand on a
/// square the loser's king may reach (a king: never stand next to one), the
/// loser's that can never come within a king step of those squares nor attack
/// a square a winner's piece not held may reach; but the most mobile of each
/// side, kept for waiting moves. A focus for finding mates, never a proof.
pub fn idle_pieces(pos: &Chess, winner: Color) -> u64 {
    if pos
        .ep_square(shakmaty::EnPassantMode::PseudoLegal)
        .is_some()
    {
        return 0;
    }
    let Some(a) = analyse(pos, |_, _| false, Color::White) else {
        return 0;
    };
    let b = pos.board();
    let loser = !winner;
    let region = a.king_region[ci(loser)];
    // every piece that may move: (square, colour, reach, attacks)
    let mut pieces: Vec<(u32, Color, u64, u64)> = Vec::new();
    for s in squares(b.occupied().0 & !b.pawns().0 & !a.frozen) {
        let color = if is_white(b, s) {
            Color::White
        } else {
            Color::Black
        };
        let (reach, attacks) = if b.kings().0 & bit(s) != 0 {
            if color == loser {
                continue;
            }
            (
                a.king_region[ci(color)],
                king_spread(a.king_region[ci(color)]),
            )
        } else {
            (
                a.mobility[s as usize].map_or(0, |m| m.reach),
                a.attacks_of(s),
            )
        };
        pieces.push((s, color, reach, attacks));
    }
    let (mut needed, mut reach_needed) = (0, 0);
    for &(s, color, reach, attacks) in &pieces {
        if color == winner && (reach | attacks) & region != 0 {
            needed |= bit(s);
            reach_needed |= reach;
        }
    }
    let near = king_spread(region);
    for &(s, color, reach, attacks) in &pieces {
        if color == loser && (reach & near != 0 || attacks & reach_needed != 0) {
            needed |= bit(s);
        }
    }
    let mut still = 0;
    for side in [winner, loser] {
        let mut idle: Vec<(u32, u32)> = pieces
            .iter()
            .filter(|&&(s, c, _, _)| c == side && needed & bit(s) == 0)
            .map(|&(s, _, reach, _)| (reach.count_ones(), s))
            .collect();
        idle.sort_unstable_by(|x, y| y.cmp(x));
        for &(_, s) in idle.iter().skip(1) {
            still |= bit(s);
        }
    }
    still
}

/// Record the mobility of the unit of side `c` on `s`.
fn add(
    result: &mut Analysis<'_>,
    prey: &mut [u64; 2],
    hits: &mut [u64; 2],
    s: u32,
    c: usize,
    mob: Mobility,
) {
    result.mobility[s as usize] = Some(mob);
    prey[c] |= mob.reach;
    hits[c] |= mob.hits;
    result.attacks[c] |= mob.attacks;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unwinnable::testing::pos;

    #[test]
    fn a_locked_chain_is_frozen() {
        let p = pos("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1");
        let a = analyse(&p, |_, _| false, Color::White).expect("an analysis");
        assert_eq!(a.frozen, p.board().pawns().0);
        assert_eq!(a.king_region[0] & (0xFF << 24), 0); // the black king never reaches rank 4
    }

    #[test]
    fn a_free_pawn_promotes() {
        let p = pos("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        let a = analyse(&p, |_, _| false, Color::White).expect("an analysis");
        assert_eq!(a.frozen, 0);
        assert!(a.mobility[12].expect("e2 moves").promotes);
    }

    #[test]
    fn push_stops() {
        // e2 against e5 and e7: e5 onwards
        let stop = push_stop(12, true, bit(36) | bit(52));
        assert_eq!(stop, bit(36) | bit(44) | bit(52) | bit(60));
        let stop = push_stop(52, false, bit(12) | bit(28));
        assert_eq!(stop, bit(4) | bit(12) | bit(20) | bit(28));
    }
}
