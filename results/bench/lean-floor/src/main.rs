// A lean stand-alone version of the per-ply work `fow bench` measures, to find what that
// work costs on this machine without fow's layers (results/bench/lean-floor/README.md).
//
// Done every ply, as in fow's arena: the mover's move set rebuilt (one entry per piece with
// its targets, pawns in bulk, castling), its view (eight masked bitboards), a uniformly
// random move drawn by index with Pcg64Mcg (entry found by counting starts, target by a
// broadword select, captured piece named from the view), the move checked against the set,
// recorded and played, the mover's view after its move, one clock read.
// Left out: the Player trait (dynamic dispatch, Result, catch_unwind), game records, per-game
// allocation (storage reused), every rule switch (thesis rules hard-coded: no en passant,
// queen promotion only, castling by position), the observation API.
//
// Usage: lean-floor [GAMES=20000] [REPEATS=3] (words such as `thesis` are ignored); prints
// the plies, the best run in M plies/s and a hash of the moves.
use fow_variants::select_bit;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use shakmaty::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use shakmaty::{Bitboard, Color, Square};

const PAWN: usize = 0;
const KNIGHT: usize = 1;
const BISHOP: usize = 2;
const ROOK: usize = 3;
const QUEEN: usize = 4;
const KING: usize = 5;

#[derive(Clone)]
struct Pos {
    role: [u64; 6],
    color: [u64; 2],   // 0 black, 1 white
    mailbox: [u8; 64], // 0 empty, 1+role
    turn: usize,
    halfmoves: u32,
}

fn sq(s: u32) -> Square {
    Square::new(s)
}

impl Pos {
    fn start() -> Pos {
        let b = shakmaty::Board::new();
        let mut p = Pos {
            role: [0; 6],
            color: [0; 2],
            mailbox: [0; 64],
            turn: 1,
            halfmoves: 0,
        };
        for (s, piece) in b.iter() {
            let r = piece.role as usize - 1;
            p.role[r] |= 1 << s as u32;
            p.color[piece.color as usize] |= 1 << s as u32;
            p.mailbox[s as usize] = r as u8 + 1;
        }
        p
    }
}

#[derive(Clone, Copy, Default)]
struct Mv {
    from: u8,
    to: u8,
    role: u8,
    capture: u8,
    promo: u8,
}

const MAXE: usize = 80;

struct View {
    visible: u64,
    role: [u64; 6],
    color: [u64; 2],
    castling: u64,
}

impl View {
    fn set(&mut self, p: &Pos, visible: u64) {
        self.visible = visible;
        for r in 0..6 {
            self.role[r] = p.role[r] & visible;
        }
        self.color[0] = p.color[0] & visible;
        self.color[1] = p.color[1] & visible;
        // fow's view stores the mover's castling rights too; under these rules there are none.
        self.castling = 0;
    }
    #[inline(always)]
    fn role_at(&self, s: u32) -> u8 {
        let bit = |b: u64| ((b >> s) & 1) as u8;
        bit(self.role[0])
            | (bit(self.role[1]) * 2)
            | (bit(self.role[2]) * 3)
            | (bit(self.role[3]) * 4)
            | (bit(self.role[4]) * 5)
            | (bit(self.role[5]) * 6)
    }
}

struct Obs {
    view: View,
    prev: View,
    targets: [u64; MAXE],
    from: [u8; MAXE],
    kind: [u8; MAXE], // role index, 6 = single push, 7 = double push, 8 = castle
    starts: [u16; MAXE],
    at_from: [u8; 64],
    len: usize,
    count: u32,
}

const LANES: usize = 8;

impl Obs {
    fn new() -> Box<Obs> {
        Box::new(Obs {
            view: View {
                visible: 0,
                role: [0; 6],
                color: [0; 2],
                castling: 0,
            },
            prev: View {
                visible: 0,
                role: [0; 6],
                color: [0; 2],
                castling: 0,
            },
            targets: [0; MAXE],
            from: [0; MAXE],
            kind: [0; MAXE],
            starts: [u16::MAX; MAXE],
            at_from: [255; 64],
            len: 0,
            count: 0,
        })
    }

    #[inline(always)]
    fn push(&mut self, len: &mut usize, count: &mut u32, kind: u8, from: u32, t: u64) {
        self.push_i(len, count, kind, from, t, kind < 6)
    }
    #[inline(always)]
    fn push_i(
        &mut self,
        len: &mut usize,
        count: &mut u32,
        kind: u8,
        from: u32,
        t: u64,
        index: bool,
    ) {
        let l = *len;
        self.targets[l] = t;
        self.from[l] = from as u8;
        self.kind[l] = kind;
        self.starts[l] = *count as u16;
        if index {
            self.at_from[from as usize] = l as u8;
        }
        let c = t.count_ones();
        *count += c;
        *len = l + (c != 0) as usize;
    }

    #[inline(always)]
    fn refresh(&mut self, p: &Pos) {
        let us = p.turn;
        let ours = p.color[us];
        let theirs = p.color[us ^ 1];
        let occ = ours | theirs;
        let enter = !ours;
        let mut len = 0;
        let mut count = 0;
        let mut reached = 0u64;
        // One loop per piece type, as in fow's walk.
        macro_rules! each {
            ($role:expr, |$f:ident| $attacks:expr) => {
                let mut bb = ours & p.role[$role];
                while bb != 0 {
                    let $f = sq(bb.trailing_zeros());
                    bb &= bb - 1;
                    let t = $attacks & enter;
                    reached |= t;
                    self.push(&mut len, &mut count, $role as u8, $f as u32, t);
                }
            };
        }
        each!(KNIGHT, |f| knight_attacks(f).0);
        each!(BISHOP, |f| bishop_attacks(f, Bitboard(occ)).0);
        each!(ROOK, |f| rook_attacks(f, Bitboard(occ)).0);
        each!(QUEEN, |f| rook_attacks(f, Bitboard(occ)).0
            | bishop_attacks(f, Bitboard(occ)).0);
        each!(KING, |f| king_attacks(f).0);
        let kings = ours & p.role[KING];
        let pawns = ours & p.role[PAWN];
        let empty = !occ;
        let (single, double) = if us == 1 {
            let s = (pawns << 8) & empty;
            (s, ((s & 0xff0000) << 8) & empty)
        } else {
            let s = (pawns >> 8) & empty;
            (s, ((s & 0x0000_ff00_0000_0000) >> 8) & empty)
        };
        reached |= single | double;
        self.push(&mut len, &mut count, 6, 0, single);
        self.push(&mut len, &mut count, 7, 0, double);
        // Pawns with captures, found in bulk.
        let prey = theirs;
        let pw = prey & !0x8080_8080_8080_8080;
        let pe = prey & !0x0101_0101_0101_0101;
        let hunters = if us == 1 {
            (pw >> 7) | (pe >> 9)
        } else {
            (pw << 9) | (pe << 7)
        } & pawns;
        let mut bb = hunters;
        while bb != 0 {
            let f = bb.trailing_zeros();
            bb &= bb - 1;
            let t =
                pawn_attacks(if us == 1 { Color::White } else { Color::Black }, sq(f)).0 & theirs;
            reached |= t;
            self.push(&mut len, &mut count, PAWN as u8, f, t);
        }
        // castling (thesis)
        let home = if us == 1 { 4u32 } else { 60 };
        if kings >> home & 1 == 1 {
            let rank = if us == 1 { 0 } else { 56 };
            let rooks = ours & p.role[ROOK];
            if rooks >> (rank + 7) & 1 == 1 && occ & (0x60u64 << rank) == 0 {
                let t = 1u64 << (rank + 6);
                reached |= t;
                self.push(&mut len, &mut count, 8, home, t);
            }
            if rooks >> rank & 1 == 1 && occ & (0x0eu64 << rank) == 0 {
                let t = 1u64 << (rank + 2);
                reached |= t;
                self.push(&mut len, &mut count, 8, home, t);
            }
        }
        self.starts[len..len + LANES].fill(u16::MAX);
        self.len = len;
        self.count = count;
        self.view.set(p, reached | ours);
    }

    #[inline(always)]
    fn entry_of(&self, i: usize) -> usize {
        let i = i as u16;
        let groups = self.len.div_ceil(LANES);
        let mut below = 0usize;
        for group in self.starts[..groups * LANES].chunks_exact(LANES) {
            below += group.iter().filter(|&&s| s <= i).count();
        }
        below - 1
    }

    #[inline(always)]
    fn origin(&self, k: usize, to: u32, us: usize) -> u32 {
        match self.kind[k] {
            6 => {
                if us == 1 {
                    to - 8
                } else {
                    to + 8
                }
            }
            7 => {
                if us == 1 {
                    to - 16
                } else {
                    to + 16
                }
            }
            _ => self.from[k] as u32,
        }
    }

    #[inline(always)]
    fn nth(&self, i: usize, us: usize) -> Mv {
        let k = self.entry_of(i);
        let j = (i - self.starts[k] as usize) as u32;
        let to = select_bit(self.targets[k], j) as u32;
        let kind = self.kind[k];
        let role = match kind {
            6 | 7 => PAWN as u8,
            8 => KING as u8,
            r => r,
        };
        let last = if us == 1 {
            0xff00_0000_0000_0000u64
        } else {
            0xff
        };
        let promo = (role == PAWN as u8 && last >> to & 1 == 1) as u8;
        Mv {
            from: self.origin(k, to, us) as u8,
            to: to as u8,
            role: role + 1,
            capture: self.view.role_at(to),
            promo,
        }
    }

    #[inline(always)]
    fn contains(&self, m: &Mv, us: usize) -> bool {
        let push = m.role == 1 && (m.from & 7) == (m.to & 7);
        let k = if push {
            // find push entry
            let dbl = (m.from as i32 - m.to as i32).abs() == 16;
            let want = if dbl { 7 } else { 6 };
            match (0..self.len).find(|&k| self.kind[k] == want) {
                Some(k) => k,
                None => return false,
            }
        } else if m.role == 6 && (m.from as i32 - m.to as i32).abs() == 2 {
            match (0..self.len).find(|&k| self.kind[k] == 8 && self.targets[k] >> m.to & 1 == 1) {
                Some(k) => k,
                None => return false,
            }
        } else {
            self.at_from[m.from as usize] as usize
        };
        k < self.len
            && self.targets[k] >> m.to & 1 == 1
            && self.origin(k, m.to as u32, us) == m.from as u32
    }
}

#[inline(always)]
fn visibility(p: &Pos, us: usize) -> u64 {
    let ours = p.color[us];
    let theirs = p.color[us ^ 1];
    let occ = ours | theirs;
    let mut r = 0u64;
    let mut bb = ours & p.role[KNIGHT];
    while bb != 0 {
        r |= knight_attacks(sq(bb.trailing_zeros())).0;
        bb &= bb - 1;
    }
    let mut bb = ours & (p.role[BISHOP] | p.role[QUEEN]);
    while bb != 0 {
        r |= bishop_attacks(sq(bb.trailing_zeros()), Bitboard(occ)).0;
        bb &= bb - 1;
    }
    let mut bb = ours & (p.role[ROOK] | p.role[QUEEN]);
    while bb != 0 {
        r |= rook_attacks(sq(bb.trailing_zeros()), Bitboard(occ)).0;
        bb &= bb - 1;
    }
    let mut bb = ours & p.role[KING];
    while bb != 0 {
        r |= king_attacks(sq(bb.trailing_zeros())).0;
        bb &= bb - 1;
    }
    r &= !ours;
    let pawns = ours & p.role[PAWN];
    let empty = !occ;
    let west = pawns & !0x0101_0101_0101_0101;
    let east = pawns & !0x8080_8080_8080_8080;
    if us == 1 {
        let s = (pawns << 8) & empty;
        r |= s | (((s & 0xff0000) << 8) & empty) | (((west << 7) | (east << 9)) & theirs);
    } else {
        let s = (pawns >> 8) & empty;
        r |= s
            | (((s & 0x0000_ff00_0000_0000) >> 8) & empty)
            | (((west >> 9) | (east >> 7)) & theirs);
    }
    // castling
    let home = if us == 1 { 4u32 } else { 60 };
    if (ours & p.role[KING]) >> home & 1 == 1 {
        let rank = if us == 1 { 0 } else { 56 };
        let rooks = ours & p.role[ROOK];
        if rooks >> (rank + 7) & 1 == 1 && occ & (0x60u64 << rank) == 0 {
            r |= 1u64 << (rank + 6);
        }
        if rooks >> rank & 1 == 1 && occ & (0x0eu64 << rank) == 0 {
            r |= 1u64 << (rank + 2);
        }
    }
    r | ours
}

impl Pos {
    #[inline(always)]
    fn play(&mut self, m: &Mv) -> bool {
        let us = self.turn;
        let f = 1u64 << m.from;
        let t = 1u64 << m.to;
        let cap = self.mailbox[m.to as usize];
        if cap != 0 {
            self.role[cap as usize - 1] &= !t;
            self.color[us ^ 1] &= !t;
        }
        let role = m.role as usize - 1;
        let newrole = if m.promo != 0 { QUEEN } else { role };
        self.role[role] &= !f;
        self.role[newrole] |= t;
        self.color[us] ^= f | t;
        self.mailbox[m.from as usize] = 0;
        self.mailbox[m.to as usize] = newrole as u8 + 1;
        if role == KING && (m.from as i32 - m.to as i32).abs() == 2 {
            let (rf, rt) = if m.to > m.from {
                (m.from + 3, m.from + 1)
            } else {
                (m.from - 4, m.from - 1)
            };
            let b = (1u64 << rf) | (1u64 << rt);
            self.role[ROOK] ^= b;
            self.color[us] ^= b;
            self.mailbox[rf as usize] = 0;
            self.mailbox[rt as usize] = ROOK as u8 + 1;
        }
        self.halfmoves = if role == PAWN || cap != 0 {
            0
        } else {
            self.halfmoves + 1
        };
        self.turn ^= 1;
        cap == KING as u8 + 1
    }
}

fn play_game(
    seed: u64,
    clock: &quanta::Clock,
    obs: &mut [Box<Obs>; 2],
    moves: &mut Vec<Mv>,
) -> (u32, u64) {
    let mut rng = [
        Pcg64Mcg::seed_from_u64(seed),
        Pcg64Mcg::seed_from_u64(seed ^ 0x9e37),
    ];
    let mut p = Pos::start();
    moves.clear();
    let mut ticks = [0u64; 2];
    let mut last = clock.raw();
    let mut ply = 0;
    loop {
        let us = p.turn;
        let o = &mut obs[us];
        o.refresh(&p);
        if o.count == 0 {
            break;
        }
        let i = rng[us].random_range(0..o.count as usize);
        let m = o.nth(i, us);
        let now = clock.raw();
        ticks[us] += now - last;
        last = now;
        if !o.contains(&m, us) {
            panic!("illegal");
        }
        moves.push(m);
        let king = p.play(&m);
        ply += 1;
        let v = visibility(&p, us);
        o.prev.set(&p, v);
        if king || p.halfmoves >= 200 {
            break;
        }
    }
    (ply, ticks[0] + ticks[1])
}

fn main() {
    // Numeric arguments only (a word such as `thesis` is skipped, for scripts shared with fow).
    let nums: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let games = nums.first().copied().unwrap_or(20000);
    let reps = nums.get(1).copied().unwrap_or(3) as usize;
    let clock = quanta::Clock::new();
    let mut obs = [Obs::new(), Obs::new()];
    let mut moves = Vec::with_capacity(1024);
    let mut best = f64::MAX;
    let mut plies = 0u64;
    let mut sig = 0u64;
    for _ in 0..reps {
        let t = std::time::Instant::now();
        plies = 0;
        sig = 0;
        for g in 0..games {
            let (n, tk) = play_game(g * 0x9e37_79b9_7f4a_7c15 + 1, &clock, &mut obs, &mut moves);
            plies += n as u64;
            std::hint::black_box(tk);
            for m in &moves {
                sig = sig.rotate_left(5)
                    ^ (m.from as u64 | (m.to as u64) << 6 | (m.capture as u64) << 12);
            }
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{} plies best {:.2} M/s sig {:016x}",
        plies,
        plies as f64 / best / 1e6,
        sig
    );
}
