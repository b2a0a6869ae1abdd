//! Training examples for the network, and the compact file that holds them.
//!
//! One [`Example`] per decision: the mover's plane codes now and after its previous move
//! (see [`super::encode`]), the move played (origin and destination, mover's point of
//! view) and the game's result for the mover.
//!
//! File format (little-endian): the 8 bytes `FOWNN001`, a `u32` length, that many bytes
//! of JSON header ([`DatasetHeader`]), then [`Example::BYTES`]-byte records: `now` (64
//! bytes), `prev` (64 bytes), `from`, `to`, `result` (i8: 1 win, 0 draw, -1 loss for the
//! mover), `ply` (u16), `castling` (bit 0: own rook on oriented h1 keeps its right, bit 1:
//! on a1), `ep` (oriented en passant square the mover can capture on, 255 for none).
//! With those, an example holds exactly what the observation held about the present,
//! so its legal moves can be rebuilt ([`Example::legal_pairs`]).

use std::io::{self, Read, Write};

use fow_variants::shakmaty::File;
use fow_variants::{
    Bitboard, Board, Color, Game, Move, MoveSource, Observation, Position, Role, RuleSet, Square,
};
use serde::{Deserialize, Serialize};

use super::encode::{observation_codes, oriented, EMPTY, FOG};

const MAGIC: &[u8; 8] = b"FOWNN001";

/// One decision: what the mover saw and what it played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    /// Plane codes of the view now.
    pub now: [u8; 64],
    /// Plane codes of the view after the mover's previous move (all fog if none).
    pub prev: [u8; 64],
    /// Origin square, mover's point of view.
    pub from: u8,
    /// Destination square, mover's point of view.
    pub to: u8,
    /// The game's result for the mover: 1 win, 0 draw, -1 loss.
    pub result: i8,
    /// The ply of the decision.
    pub ply: u16,
    /// Own castling rights: bit 0 the oriented h1 rook, bit 1 the a1 rook.
    pub castling: u8,
    /// The oriented en passant square, 255 for none.
    pub ep: u8,
}

impl Example {
    /// Bytes per record in a dataset file.
    pub const BYTES: usize = 64 + 64 + 2 + 1 + 2 + 2;

    /// The example of `obs` when `m` was played in a game that `winner` won.
    pub fn new(obs: &Observation, m: &Move, winner: Option<Color>) -> Example {
        let (now, prev) = observation_codes(obs);
        let mover = obs.color();
        Example {
            now,
            prev,
            from: oriented(m.from, mover) as u8,
            to: oriented(m.to, mover) as u8,
            result: match winner {
                None => 0,
                Some(c) if c == mover => 1,
                Some(_) => -1,
            },
            ply: obs.ply().min(u32::from(u16::MAX)) as u16,
            castling: {
                let rights = obs.view().castling_rights();
                let back = mover.backrank();
                let h = Square::from_coords(File::H, back);
                let a = Square::from_coords(File::A, back);
                u8::from(rights.contains(h)) | (u8::from(rights.contains(a)) << 1)
            },
            ep: obs
                .view()
                .ep_square()
                .map_or(255, |sq| oriented(sq, mover) as u8),
        }
    }

    /// The (from, to) pairs of the mover's legal moves, in oriented squares, rebuilt from
    /// the example alone (the mover plays White on the oriented board). Promotions to
    /// several pieces count once.
    pub fn legal_pairs(&self, rules: &RuleSet) -> Vec<(u8, u8)> {
        let mut board = Board::empty();
        let mut fog = Bitboard::EMPTY;
        for (i, &c) in self.now.iter().enumerate() {
            let sq = Square::new(i as u32);
            match c {
                FOG => fog.add(sq),
                EMPTY => {}
                2..=7 => board.set_piece_at(sq, Role::ALL[c as usize - 2].of(Color::White)),
                _ => board.set_piece_at(sq, Role::ALL[c as usize - 8].of(Color::Black)),
            }
        }
        let mut castling = Bitboard::EMPTY;
        if self.castling & 1 != 0 {
            castling.add(Square::H1);
        }
        if self.castling & 2 != 0 {
            castling.add(Square::A1);
        }
        let ep = (self.ep < 64).then(|| Square::new(u32::from(self.ep)));
        let mut moves = Vec::new();
        MoveSource::new(&board, fog, Color::White, castling, ep, rules).push_moves(&mut moves);
        let mut pairs: Vec<(u8, u8)> = moves.iter().map(|m| (m.from as u8, m.to as u8)).collect();
        pairs.dedup();
        pairs
    }

    fn write(&self, w: &mut impl Write) -> io::Result<()> {
        w.write_all(&self.now)?;
        w.write_all(&self.prev)?;
        w.write_all(&[self.from, self.to, self.result as u8])?;
        w.write_all(&self.ply.to_le_bytes())?;
        w.write_all(&[self.castling, self.ep])
    }

    fn read(b: &[u8]) -> Example {
        let mut now = [0; 64];
        let mut prev = [0; 64];
        now.copy_from_slice(&b[..64]);
        prev.copy_from_slice(&b[64..128]);
        Example {
            now,
            prev,
            from: b[128],
            to: b[129],
            result: b[130] as i8,
            ply: u16::from_le_bytes([b[131], b[132]]),
            castling: b[133],
            ep: b[134],
        }
    }
}

/// What a dataset file says about itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DatasetHeader {
    /// Number of examples.
    pub examples: u64,
    /// Where they came from, in the words of the command that made them.
    pub sources: Vec<String>,
    /// Which decisions were taken (e.g. "oferwald", "both sides", "PossibleBoardList").
    pub selection: String,
    /// The rules the games were replayed under.
    pub rules: RuleSet,
}

/// Writes a dataset file.
pub fn write_dataset(
    w: &mut impl Write,
    header: &DatasetHeader,
    examples: &[Example],
) -> io::Result<()> {
    let mut header = header.clone();
    header.examples = examples.len() as u64;
    let json = serde_json::to_vec(&header).map_err(io::Error::other)?;
    w.write_all(MAGIC)?;
    w.write_all(&(json.len() as u32).to_le_bytes())?;
    w.write_all(&json)?;
    for e in examples {
        e.write(w)?;
    }
    w.flush()
}

/// Reads a dataset file; errors say what is wrong (bad magic, short file, bad header).
pub fn read_dataset(r: &mut impl Read) -> io::Result<(DatasetHeader, Vec<Example>)> {
    let bad = |m: &str| io::Error::new(io::ErrorKind::InvalidData, m.to_string());
    let mut magic = [0u8; 8];
    r.read_exact(&mut magic)
        .map_err(|_| bad("not a fow dataset (too short)"))?;
    if &magic != MAGIC {
        return Err(bad("not a fow dataset (bad magic bytes)"));
    }
    let mut len = [0u8; 4];
    r.read_exact(&mut len)
        .map_err(|_| bad("truncated header"))?;
    let mut json = vec![0u8; u32::from_le_bytes(len) as usize];
    r.read_exact(&mut json)
        .map_err(|_| bad("truncated header"))?;
    let header: DatasetHeader =
        serde_json::from_slice(&json).map_err(|e| bad(&format!("bad header: {e}")))?;
    let mut body = Vec::new();
    r.read_to_end(&mut body)?;
    if body.len() != header.examples as usize * Example::BYTES {
        return Err(bad(&format!(
            "expected {} examples, the file holds {} bytes of records",
            header.examples,
            body.len()
        )));
    }
    let examples = body
        .chunks_exact(Example::BYTES)
        .map(Example::read)
        .collect();
    Ok((header, examples))
}

/// Reads the dataset file at `path` ([`read_dataset`]); the error names the file
/// (`d.bin: not a fow dataset (too short)`).
pub fn read_dataset_file(path: &std::path::Path) -> Result<(DatasetHeader, Vec<Example>), String> {
    let name = path.display();
    let file = std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?;
    read_dataset(&mut io::BufReader::new(file)).map_err(|e| format!("{name}: {e}"))
}

/// The examples of one game replayed from `start`: one per decision of a side `take`
/// accepts. `moves` are the game's moves (legal ones; an illegal move ends the replay
/// with an error naming its ply).
pub fn game_examples(
    start: &Position,
    moves: &[Move],
    rules: &RuleSet,
    winner: Option<Color>,
    take: impl Fn(Color) -> bool,
) -> Result<Vec<Example>, String> {
    let mut game = Game::new(start.clone(), *rules);
    let mut obs: [Option<Observation>; 2] = [None, None];
    let mut out = Vec::new();
    for (ply, m) in moves.iter().enumerate() {
        let mover = game.position().turn();
        let o = Observation::for_game(&mut obs[mover as usize], &game);
        if !o.is_legal(m) {
            return Err(format!("ply {}: {m} is not legal", ply + 1));
        }
        if take(mover) {
            let e = Example::new(o, m, winner);
            out.push(e);
        }
        let end = game.play(m);
        if end.is_some() {
            break;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dataset file read by path: its examples, or an error naming the file.
    #[test]
    fn dataset_files_are_read_by_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.bin");
        let header = DatasetHeader {
            examples: 0,
            sources: vec!["x".into()],
            selection: "both sides".into(),
            rules: RuleSet::thesis(),
        };
        let mut bytes = Vec::new();
        write_dataset(&mut bytes, &header, &[]).unwrap();
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(read_dataset_file(&path), Ok((header, Vec::new())));
        std::fs::write(&path, b"fow").unwrap();
        let name = path.display();
        assert_eq!(
            read_dataset_file(&path),
            Err(format!("{name}: not a fow dataset (too short)"))
        );
        let missing = dir.path().join("none.bin");
        let e = read_dataset_file(&missing).unwrap_err();
        assert!(e.starts_with(&format!("{}: ", missing.display())), "{e}");
    }

    #[test]
    fn round_trip_and_errors() {
        let rules = RuleSet::thesis();
        let pos = Position::startpos();
        let moves: Vec<Move> = ["e2e4", "e7e5", "g1f3", "b8c6"]
            .iter()
            .scan(pos.clone(), |p, t| {
                let m = p.parse_uci(t, &rules).unwrap();
                p.play(&m);
                Some(m)
            })
            .collect();
        let ex = game_examples(&pos, &moves, &rules, Some(Color::Black), |_| true).unwrap();
        assert_eq!(ex.len(), 4);
        assert_eq!(ex[0].result, -1);
        assert_eq!(ex[1].result, 1);
        // Black's e7e5 is e2e4 from Black's side.
        assert_eq!((ex[1].from, ex[1].to), (ex[0].from, ex[0].to));
        assert!(ex[0].prev.iter().all(|&c| c == super::super::encode::FOG));
        assert!(ex[2].prev.iter().any(|&c| c != super::super::encode::FOG));
        let white_only = game_examples(&pos, &moves, &rules, None, |c| c == Color::White).unwrap();
        assert_eq!(white_only.len(), 2);
        assert!(white_only.iter().all(|e| e.result == 0));

        let header = DatasetHeader {
            examples: 0,
            sources: vec!["test".into()],
            selection: "both sides".into(),
            rules,
        };
        let mut bytes = Vec::new();
        write_dataset(&mut bytes, &header, &ex).unwrap();
        let (h, back) = read_dataset(&mut bytes.as_slice()).unwrap();
        assert_eq!(h.examples, 4);
        assert_eq!(back, ex);
        assert!(read_dataset(&mut &bytes[..bytes.len() - 1]).is_err());
        assert!(read_dataset(&mut &b"NOTFOW00"[..]).is_err());
        let mut bad = moves.clone();
        bad.swap(0, 1);
        assert!(game_examples(&pos, &bad, &rules, None, |_| true)
            .unwrap_err()
            .contains("ply 1"));
    }

    #[test]
    fn legal_pairs_rebuild_the_observations_moves() {
        use rand::{Rng, SeedableRng};
        for rules in [RuleSet::thesis(), RuleSet::chesscom()] {
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(8);
            for _ in 0..30 {
                let mut game = Game::new(Position::startpos(), rules);
                let mut obs: [Option<Observation>; 2] = [None, None];
                for _ in 0..120 {
                    let mover = game.position().turn();
                    let o = Observation::for_game(&mut obs[mover as usize], &game);
                    if o.move_count() == 0 {
                        break;
                    }
                    let m = o.nth_move(rng.random_range(0..o.move_count())).unwrap();
                    let e = Example::new(o, &m, None);
                    let mut want: Vec<(u8, u8)> = o
                        .legal_moves()
                        .iter()
                        .map(|x| (oriented(x.from, mover) as u8, oriented(x.to, mover) as u8))
                        .collect();
                    want.sort_unstable();
                    want.dedup();
                    let mut got = e.legal_pairs(&rules);
                    got.sort_unstable();
                    assert_eq!(got, want, "{}", game.position());
                    assert!(got.contains(&(e.from, e.to)));
                    let end = game.play(&m);
                    if end.is_some() {
                        break;
                    }
                }
            }
        }
    }
}
