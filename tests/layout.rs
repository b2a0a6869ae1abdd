//! The module layout of every crate of the workspace, the CLI included: inside each
//! crate, imports between modules go one way (no module uses, directly or through others,
//! a module that uses it).
//!
//! For each crate in [`CHECKED`], every file under its `src/` is a module (`lib.rs` and
//! `main.rs` the root, `x/mod.rs` the module `x`, `x/y.rs` the module `x::y`). Comments,
//! string and character literals are blanked out and items under `#[cfg(test)]` removed
//! (a `#[cfg(test)] mod testing;` drops that file too), so only the crate's own code
//! counts. Module `a` depends on module `b` when it names a path into `b`: `use
//! crate::b::Item`, `crate::b::item(..)`, `$crate::b::..` in a macro, `use crate::{b,
//! ..}`, `use crate::{x::{b::Item}}` or `super::b::..`. A path through a re-export
//! (`crate::Item` where lib.rs says `pub use b::Item`) counts as a path into `b`. A module
//! and its ancestors are never an edge: a parent declares and re-exports its children, and
//! children name items through it.
//!
//! A cycle fails the test, naming the modules in order and, for each arrow, the file, the
//! line and the path that makes it.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

/// The source folders (relative to the workspace root) whose module graphs must have no
/// cycles: every crate of the workspace, the CLI (`src`) included. A new crate goes here
/// (a test checks that every workspace member is listed).
const CHECKED: &[&str] = &[
    "variants/src",
    "players/src",
    "records/src",
    "arena/src",
    "ratings/src",
    "analysis/src",
    "train/src",
    "python/src",
    "web/src",
    "src",
];

fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn library_crates_have_no_module_cycles() {
    let report = cycles_in_every_crate(|graph| {
        assert!(
            graph.modules.len() > 1,
            "found {} module(s); is the path right?",
            graph.modules.len()
        );
        graph
    });
    assert!(
        report.is_empty(),
        "module import cycles (break each by moving the shared item to the module it \
         belongs to, or to a new module below both):\n{report}"
    );
}

/// The same one way between folders: a folder (`players/src/external/`) and the modules
/// beside it import each other through none of their modules, so that a folder can be
/// read, moved or split as one piece. Each module counts as its top-level module
/// (`external::process` as `external`).
#[test]
fn folders_import_one_way_too() {
    let report = cycles_in_every_crate(|graph| graph.folders());
    assert!(
        report.is_empty(),
        "folder import cycles (break each by moving the shared item to the folder it \
         belongs to, or to a module below both):\n{report}"
    );
}

/// The cycles of `view` of each crate's module graph, a line each (empty: none).
fn cycles_in_every_crate(view: impl Fn(Graph) -> Graph) -> String {
    let mut report = String::new();
    for dir in CHECKED {
        let graph = view(Graph::of_crate(&workspace_root().join(dir)));
        for (component, cycle) in graph.components().iter().zip(graph.cycles()) {
            writeln!(
                report,
                "{dir}: {} import each other, e.g. {}",
                component.join(", "),
                graph.describe(&cycle)
            )
            .unwrap();
        }
    }
    report
}

/// The CLI's modules shared by its subcommands: argument groups, errors and printing.
/// Every other module of `src/` is one subcommand.
const CLI_SHARED: &[&str] = &[
    "main",
    "error",
    "out",
    "jobs",
    "inputs",
    "rules_args",
    "run_args",
    "game_args",
];

/// The CLI only parses and prints: no subcommand's module uses another's (what two
/// commands share lives in a library crate or in [`CLI_SHARED`]), each subcommand's
/// `run` is at most 60 lines, and the CLI is under 3,000 lines in all.
#[test]
fn the_cli_is_thin() {
    let src = workspace_root().join("src");
    let graph = Graph::of_crate(&src);
    let command = |m: &str| !CLI_SHARED.contains(&m.split("::").next().unwrap_or(m));
    let mut problems = Vec::new();
    for (from, tos) in &graph.edges {
        for (to, e) in tos {
            if command(from) && command(to) {
                problems.push(format!(
                    "{}:{}: the command module {from} uses the command module {to} ({})",
                    e.file, e.line, e.path
                ));
            }
        }
    }
    let mut files = Vec::new();
    collect_rs(&src, &mut files);
    let mut total = 0;
    for f in &files {
        let text = fs::read_to_string(f).unwrap();
        total += text.lines().count();
        let lines: Vec<&str> = text.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            if l.starts_with("pub fn run(") {
                let end = lines[i..].iter().position(|l| *l == "}").unwrap_or(0);
                if end + 1 > 60 {
                    problems.push(format!(
                        "{}:{}: run is {} lines (at most 60: move its work into a library)",
                        f.display(),
                        i + 1,
                        end + 1
                    ));
                }
            }
        }
    }
    if total >= 3000 {
        problems.push(format!("the CLI has {total} lines (fewer than 3,000)"));
    }
    assert!(graph.modules.len() > 10, "{:?}", graph.modules);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A canary for the parser: a known one-way import must be seen, or the cycle check
/// above could pass by seeing nothing. (Update it if the layout changes.)
#[test]
fn the_parser_sees_real_imports() {
    let graph = Graph::of_crate(&workspace_root().join("variants/src"));
    assert!(graph.has_edge("movelist", "movegen"), "{:?}", graph.edges);
    let graph = Graph::of_crate(&workspace_root().join("players/src"));
    assert!(graph.has_edge("registry", "spec"), "{:?}", graph.edges);
}

#[test]
fn every_workspace_crate_is_listed() {
    let manifest = fs::read_to_string(workspace_root().join("Cargo.toml")).unwrap();
    let members = manifest
        .lines()
        .find_map(|l| l.trim().strip_prefix("members = ["))
        .expect("a `members = [...]` line in Cargo.toml");
    let mut on_disk: BTreeSet<String> = members
        .trim_end_matches(']')
        .split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
        .map(|m| format!("{m}/src"))
        .collect();
    on_disk.insert("src".into());
    let listed: BTreeSet<String> = CHECKED.iter().map(|s| s.to_string()).collect();
    assert_eq!(
        on_disk, listed,
        "every workspace crate's src/ is in CHECKED of tests/layout.rs"
    );
}

// ---- The cycle finder and the parser, tested on small made-up inputs. ----

#[test]
fn cycle_finder_finds_a_cycle_and_none_in_a_dag() {
    let g = Graph::from_edges(&[("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "e")]);
    let cycles = g.cycles();
    assert_eq!(cycles.len(), 1);
    assert!(g.describe(&cycles[0]).starts_with("a -> b"));
    assert_eq!(cycles[0], ["a", "b", "c", "a"]);
    assert_eq!(g.components(), [["a", "b", "c"]]);

    // Two separate cycles, one of them two modules long.
    let g = Graph::from_edges(&[("x", "y"), ("y", "x"), ("p", "q"), ("q", "r"), ("r", "p")]);
    assert_eq!(g.cycles().len(), 2);

    let dag = Graph::from_edges(&[("a", "b"), ("a", "c"), ("b", "c"), ("c", "d")]);
    assert!(dag.cycles().is_empty());
}

#[test]
fn parser_reads_paths_and_ignores_comments_strings_and_tests() {
    let files = [
        (
            "lib.rs",
            "mod a; mod b; mod c; mod d; pub use d::Thing;\n#[cfg(test)]\nmod testing;",
        ),
        (
            "a.rs",
            "use crate::{b::{self, X}, c};\n\
             // use crate::d::Y;\n\
             /* crate::d::Z /* nested */ crate::d::W */\n\
             const S: &str = \"crate::d::V\";\n\
             const R: &str = r#\"crate::d::U \"quoted\"\"#;\n\
             fn f<'x>(_: &'x u8) -> char { '\"' }\n\
             #[cfg(test)]\nmod tests { use crate::d::T; }\n",
        ),
        (
            "b.rs",
            "#[cfg(test)]\nfn helper() { crate::d::f() }\npub struct X;",
        ),
        ("c/mod.rs", "mod e;"),
        (
            "c/e.rs",
            "use super::super::b::X; fn g() { crate::Thing::new(); }",
        ),
        ("d.rs", "pub struct Thing; use crate::testing::T;"),
        ("testing.rs", "use crate::a::A;"),
    ];
    let g = Graph::from_files(
        files
            .iter()
            .map(|(path, text)| (PathBuf::from(path), text.to_string())),
    );
    let edges: Vec<(&str, &str)> = g
        .edges
        .iter()
        .flat_map(|(from, tos)| tos.keys().map(move |to| (from.as_str(), to.as_str())))
        .collect();
    assert_eq!(
        edges,
        [("a", "b"), ("a", "c"), ("c::e", "b"), ("c::e", "d")]
    );
    assert!(!g.modules.contains("testing"));
    let how = &g.edges["c::e"]["d"];
    assert_eq!((how.file.as_str(), how.line), ("c/e.rs", 1));
    assert_eq!(how.path, "crate::Thing::new");
    assert!(g.cycles().is_empty());

    // The same files with a back edge make a cycle, named with its evidence.
    let g = Graph::from_files([
        (PathBuf::from("lib.rs"), "mod a; mod b;".to_string()),
        (PathBuf::from("a.rs"), "use crate::b::X;".to_string()),
        (
            PathBuf::from("b.rs"),
            "\n\nfn f() { crate::a::g() }".to_string(),
        ),
    ]);
    let cycles = g.cycles();
    assert_eq!(cycles.len(), 1);
    let text = g.describe(&cycles[0]);
    assert!(text.contains("a -> b -> a"), "{text}");
    assert!(text.contains("b.rs:3 `crate::a::g`"), "{text}");
}

// ---- The module graph. ----

/// Where an edge was first seen.
#[derive(Debug, Clone)]
struct Evidence {
    file: String,
    line: usize,
    path: String,
}

#[derive(Debug, Default)]
struct Graph {
    modules: BTreeSet<String>,
    edges: BTreeMap<String, BTreeMap<String, Evidence>>,
}

/// One source file, blanked and tokenized.
struct Module {
    file: String,
    tokens: Vec<Token>,
}

#[derive(Debug, Clone, PartialEq)]
struct Token {
    text: String,
    line: usize,
}

impl Graph {
    fn from_edges(edges: &[(&str, &str)]) -> Graph {
        let mut g = Graph::default();
        for (a, b) in edges {
            g.modules.insert(a.to_string());
            g.modules.insert(b.to_string());
            g.edges.entry(a.to_string()).or_default().insert(
                b.to_string(),
                Evidence {
                    file: format!("{a}.rs"),
                    line: 1,
                    path: format!("crate::{b}"),
                },
            );
        }
        g
    }

    fn of_crate(src: &Path) -> Graph {
        let mut files = Vec::new();
        collect_rs(src, &mut files);
        Graph::from_files(files.into_iter().map(|p| {
            let text = fs::read_to_string(&p).unwrap();
            (p.strip_prefix(src).unwrap().to_path_buf(), text)
        }))
    }

    /// The graph of a crate given as (path under `src/`, text) pairs.
    fn from_files(files: impl IntoIterator<Item = (PathBuf, String)>) -> Graph {
        let mut modules: BTreeMap<String, Module> = BTreeMap::new();
        let mut test_only: BTreeSet<String> = BTreeSet::new();
        for (path, text) in files {
            let name = module_name(&path);
            let (tokens, test_mods) = tokens_outside_tests(&strip(&text));
            for child in test_mods {
                test_only.insert(join(&name, &child));
            }
            let file = path.to_string_lossy().replace('\\', "/");
            modules.insert(name, Module { file, tokens });
        }
        modules.retain(|name, _| {
            !test_only
                .iter()
                .any(|t| name == t || name.starts_with(&format!("{t}::")))
        });
        let names: BTreeSet<String> = modules.keys().cloned().collect();

        // Re-exports: in module m, `pub use ...::path as name` maps m::name to path.
        let mut reexports: HashMap<String, HashMap<String, Vec<String>>> = HashMap::new();
        for (name, m) in &modules {
            for (segs, alias) in pub_uses(name, &m.tokens, &names) {
                if let Some(alias) = alias {
                    reexports
                        .entry(name.clone())
                        .or_default()
                        .insert(alias, segs);
                }
            }
        }

        let mut g = Graph {
            modules: names.clone(),
            edges: BTreeMap::new(),
        };
        for (name, m) in &modules {
            for (segs, line) in crate_paths(name, &m.tokens) {
                let Some(target) = resolve(&segs, &names, &reexports) else {
                    continue;
                };
                if target == *name || is_ancestor(&target, name) || is_ancestor(name, &target) {
                    continue;
                }
                g.edges
                    .entry(name.clone())
                    .or_default()
                    .entry(target)
                    .or_insert_with(|| Evidence {
                        file: m.file.clone(),
                        line,
                        path: format!("crate::{}", segs.join("::")),
                    });
            }
        }
        g
    }

    /// The graph between top-level modules: each module counts as the top-level module
    /// it lies in, and an edge between two of its modules is one between their
    /// top-level modules (the first evidence kept).
    fn folders(&self) -> Graph {
        let top = |m: &str| m.split("::").next().unwrap_or(m).to_string();
        let mut g = Graph {
            modules: self.modules.iter().map(|m| top(m)).collect(),
            edges: BTreeMap::new(),
        };
        for (from, targets) in &self.edges {
            for (to, evidence) in targets {
                let (a, b) = (top(from), top(to));
                if a != b {
                    g.edges
                        .entry(a)
                        .or_default()
                        .entry(b)
                        .or_insert_with(|| evidence.clone());
                }
            }
        }
        g
    }

    fn has_edge(&self, from: &str, to: &str) -> bool {
        self.edges.get(from).is_some_and(|t| t.contains_key(to))
    }

    fn successors(&self, m: &str) -> impl Iterator<Item = &String> {
        self.edges.get(m).into_iter().flat_map(|t| t.keys())
    }

    /// One cycle per tangle (see [`Graph::components`]), as the modules in order with the
    /// first repeated at the end, starting from the tangle's first module by name.
    fn cycles(&self) -> Vec<Vec<String>> {
        self.components()
            .into_iter()
            .map(|c| {
                let start = c.iter().min().unwrap().clone();
                let inside: BTreeSet<&String> = c.iter().collect();
                // Shortest way back to `start` inside the component (breadth first).
                let mut came_from: BTreeMap<String, String> = BTreeMap::new();
                let mut queue = std::collections::VecDeque::from([start.clone()]);
                'search: while let Some(m) = queue.pop_front() {
                    for next in self.successors(&m) {
                        if !inside.contains(next) {
                            continue;
                        }
                        if *next == start {
                            came_from.insert(format!("{start}#end"), m.clone());
                            break 'search;
                        }
                        if !came_from.contains_key(next) {
                            came_from.insert(next.clone(), m.clone());
                            queue.push_back(next.clone());
                        }
                    }
                }
                let mut cycle = vec![start.clone()];
                let mut at = came_from[&format!("{start}#end")].clone();
                while at != start {
                    cycle.push(at.clone());
                    at = came_from[&at].clone();
                }
                cycle.push(start);
                cycle.reverse();
                cycle
            })
            .collect()
    }

    /// The tangles: strongly connected components (Tarjan) of more than one module, each
    /// sorted by name, in order of their first module.
    fn components(&self) -> Vec<Vec<String>> {
        struct State<'g> {
            g: &'g Graph,
            index: HashMap<&'g str, usize>,
            low: HashMap<&'g str, usize>,
            stack: Vec<&'g str>,
            on_stack: BTreeSet<&'g str>,
            out: Vec<Vec<String>>,
        }
        fn visit<'g>(s: &mut State<'g>, v: &'g str) {
            let i = s.index.len();
            s.index.insert(v, i);
            s.low.insert(v, i);
            s.stack.push(v);
            s.on_stack.insert(v);
            let g = s.g;
            for w in g.successors(v) {
                let w = w.as_str();
                if !s.index.contains_key(w) {
                    visit(s, w);
                    let lw = s.low[w];
                    let lv = s.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if s.on_stack.contains(w) {
                    let iw = s.index[w];
                    let lv = s.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
            if s.low[v] == s.index[v] {
                let mut c = Vec::new();
                loop {
                    let w = s.stack.pop().unwrap();
                    s.on_stack.remove(w);
                    c.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                c.sort();
                s.out.push(c);
            }
        }
        let mut s = State {
            g: self,
            index: HashMap::new(),
            low: HashMap::new(),
            stack: Vec::new(),
            on_stack: BTreeSet::new(),
            out: Vec::new(),
        };
        for m in &self.modules {
            if !s.index.contains_key(m.as_str()) {
                visit(&mut s, m);
            }
        }
        s.out.retain(|c| c.len() > 1);
        s.out.sort();
        s.out
    }

    /// `a -> b -> a (a.rs:3 `crate::b::X`; b.rs:9 `crate::a::f`)`.
    fn describe(&self, cycle: &[String]) -> String {
        let why: Vec<String> = cycle
            .windows(2)
            .map(|w| {
                let e = &self.edges[&w[0]][&w[1]];
                format!("{}:{} `{}`", e.file, e.line, e.path)
            })
            .collect();
        format!("{} ({})", cycle.join(" -> "), why.join("; "))
    }
}

fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect_rs(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// `lib.rs` → ``, `x/mod.rs` → `x`, `x/y.rs` → `x::y`.
fn module_name(path: &Path) -> String {
    let mut parts: Vec<String> = path
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts.join("::")
}

fn join(parent: &str, child: &str) -> String {
    if parent.is_empty() {
        child.to_string()
    } else {
        format!("{parent}::{child}")
    }
}

fn is_ancestor(a: &str, b: &str) -> bool {
    a.is_empty() || b.starts_with(&format!("{a}::"))
}

fn parent(m: &str) -> String {
    m.rsplit_once("::").map_or(String::new(), |(p, _)| p.into())
}

fn segments(m: &str) -> Vec<String> {
    if m.is_empty() {
        Vec::new()
    } else {
        m.split("::").map(String::from).collect()
    }
}

/// The module a path from the crate root names: its longest prefix that is a module,
/// following re-exports (`pub use`) one step at a time.
fn resolve(
    segs: &[String],
    modules: &BTreeSet<String>,
    reexports: &HashMap<String, HashMap<String, Vec<String>>>,
) -> Option<String> {
    let mut segs = segs.to_vec();
    for _ in 0..16 {
        let k = (0..=segs.len())
            .rev()
            .find(|&k| modules.contains(&segs[..k].join("::")))?;
        let module = segs[..k].join("::");
        let through = segs
            .get(k)
            .and_then(|name| reexports.get(&module)?.get(name));
        match through {
            Some(target) if *target != segs[..=k] => {
                segs = target.iter().chain(&segs[k + 1..]).cloned().collect();
            }
            _ => return Some(module),
        }
    }
    None
}

// ---- Text: blanking comments and literals, tokens, paths. ----

/// The text with comments, string and character literals blanked (newlines kept, so
/// line numbers stay).
fn strip(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut i = 0;
    while i < c.len() {
        let prev_ident = i > 0 && ident(c[i - 1]);
        if c[i] == '/' && c.get(i + 1) == Some(&'/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && c.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if c[i] == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
        } else if !prev_ident && raw_string_start(&c, i).is_some() {
            // r"..", r#".."#, br"..": ends at a quote followed by as many hashes.
            let (hashes, body) = raw_string_start(&c, i).unwrap();
            i = body;
            while i < c.len() {
                if c[i] == '"' && (1..=hashes).all(|h| c.get(i + h) == Some(&'#')) {
                    i += 1 + hashes;
                    break;
                }
                if c[i] == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            out.push_str("\"\"");
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    i += 1;
                }
                if c.get(i) == Some(&'\n') {
                    out.push('\n');
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c[i] == '\'' && c.get(i + 1) == Some(&'\\') {
            // An escaped character literal: '\n', '\'', '\\', '\u{..}'.
            i += 3;
            while i < c.len() && c[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else if c[i] == '\'' && c.get(i + 2) == Some(&'\'') {
            // A character literal; otherwise `'` starts a lifetime.
            i += 3;
            out.push_str("' '");
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// At a raw string's `r`/`br`: the number of `#` and where its body starts.
fn raw_string_start(c: &[char], i: usize) -> Option<(usize, usize)> {
    let mut j = i;
    if c.get(j) == Some(&'b') {
        j += 1;
    }
    if c.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let hashes = c[j..].iter().take_while(|&&ch| ch == '#').count();
    (c.get(j + hashes) == Some(&'"')).then_some((hashes, j + hashes + 1))
}

fn tokenize(text: &str) -> Vec<Token> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch.is_alphanumeric() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push(Token {
                text: c[start..i].iter().collect(),
                line,
            });
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push(Token {
                text: "::".into(),
                line,
            });
            i += 2;
        } else {
            out.push(Token {
                text: ch.to_string(),
                line,
            });
            i += 1;
        }
    }
    out
}

/// The tokens outside `#[cfg(test)]` items, and the names of child modules declared
/// under `#[cfg(test)]` without a body (`mod testing;`).
fn tokens_outside_tests(text: &str) -> (Vec<Token>, Vec<String>) {
    let t = tokenize(text);
    let is = |i: usize, s: &str| t.get(i).is_some_and(|tok| tok.text == s);
    let cfg_test = |i: usize| {
        ["#", "[", "cfg", "(", "test", ")", "]"]
            .iter()
            .enumerate()
            .all(|(k, s)| is(i + k, s))
    };
    let mut out = Vec::new();
    let mut test_mods = Vec::new();
    let mut i = 0;
    while i < t.len() {
        if !cfg_test(i) {
            out.push(t[i].clone());
            i += 1;
            continue;
        }
        i += 7;
        // Further attributes of the same item.
        while is(i, "#") && is(i + 1, "[") {
            i = after_group(&t, i + 1);
        }
        let item_start = i;
        // The item ends at its first `;` outside brackets, or with its first `{...}`.
        let mut depth = 0usize;
        while i < t.len() {
            match t[i].text.as_str() {
                "(" | "[" => depth += 1,
                ")" | "]" => depth = depth.saturating_sub(1),
                ";" if depth == 0 => {
                    i += 1;
                    break;
                }
                "{" => {
                    i = after_group(&t, i);
                    break;
                }
                _ => {}
            }
            i += 1;
        }
        let item: Vec<&str> = t[item_start..i].iter().map(|x| x.text.as_str()).collect();
        let item = match item.first() {
            Some(&"pub") => &item[item.iter().position(|&x| x == "mod").unwrap_or(0)..],
            _ => &item[..],
        };
        if let ["mod", name, ";"] = item {
            test_mods.push(name.to_string());
        }
    }
    (out, test_mods)
}

/// The index after the bracket group that opens at `i` (`(`, `[` or `{`).
fn after_group(t: &[Token], i: usize) -> usize {
    let mut depth = 0usize;
    let mut j = i;
    while j < t.len() {
        match t[j].text.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth -= 1;
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
        j += 1;
    }
    j
}

/// Every path a module names that starts at `crate::` or `super::`, from the crate root,
/// with its line. A `use` tree with braces gives one path per leaf.
fn crate_paths(module: &str, t: &[Token]) -> Vec<(Vec<String>, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        let after_colons = i > 0 && t[i - 1].text == "::";
        let starts = !after_colons
            && matches!(t[i].text.as_str(), "crate" | "super")
            && t.get(i + 1).is_some_and(|x| x.text == "::");
        if !starts {
            i += 1;
            continue;
        }
        let line = t[i].line;
        let (prefix, next) = path_start(module, t, i);
        let mut leaves = Vec::new();
        let end = use_tree(t, next, prefix, &mut leaves);
        out.extend(leaves.into_iter().map(|(segs, _)| (segs, line)));
        i = end.max(i + 1);
    }
    out
}

/// At `crate` or `super` (followed by `::`): the module it names as segments from the
/// root, and the index after its `::`. `super::super::` climbs twice.
fn path_start(module: &str, t: &[Token], i: usize) -> (Vec<String>, usize) {
    if t[i].text == "crate" {
        return (Vec::new(), i + 2);
    }
    let mut m = parent(module);
    let mut j = i + 2;
    while t.get(j).is_some_and(|x| x.text == "super")
        && t.get(j + 1).is_some_and(|x| x.text == "::")
    {
        m = parent(&m);
        j += 2;
    }
    (segments(&m), j)
}

/// Reads a path or use tree at `i` below `prefix`, pushing each leaf path (with its
/// `as` name, or its last segment) to `out`; returns the index after it.
fn use_tree(
    t: &[Token],
    mut i: usize,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) -> usize {
    let mut segs = prefix;
    loop {
        let Some(tok) = t.get(i) else {
            out.push((segs, None));
            return i;
        };
        match tok.text.as_str() {
            "{" => {
                i += 1;
                while t.get(i).is_some_and(|x| x.text != "}") {
                    i = use_tree(t, i, segs.clone(), out);
                    if t.get(i).is_some_and(|x| x.text == ",") {
                        i += 1;
                    } else if t.get(i).is_some_and(|x| x.text != "}") {
                        i += 1; // Something unexpected: step over it.
                    }
                }
                return i + 1;
            }
            "*" => {
                out.push((segs, None));
                return i + 1;
            }
            "self" => {
                let name = segs.last().cloned();
                out.push((segs, alias(t, i + 1).or(name)));
                return skip_alias(t, i + 1);
            }
            word if is_ident(word) => {
                segs.push(word.to_string());
                if t.get(i + 1).is_some_and(|x| x.text == "::") {
                    i += 2;
                    continue;
                }
                out.push((segs, alias(t, i + 1).or(Some(word.to_string()))));
                return skip_alias(t, i + 1);
            }
            _ => {
                out.push((segs, None));
                return i;
            }
        }
    }
}

fn is_ident(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

fn alias(t: &[Token], i: usize) -> Option<String> {
    (t.get(i)?.text == "as").then(|| t.get(i + 1).map(|x| x.text.clone()))?
}

fn skip_alias(t: &[Token], i: usize) -> usize {
    if t.get(i).is_some_and(|x| x.text == "as") {
        i + 2
    } else {
        i
    }
}

/// The leaves of a module's `pub use` and `pub(..) use` statements, as paths from the
/// crate root with the name each is exported under. A path that does not start in the
/// crate (`shakmaty::Color`) is left out.
fn pub_uses(
    module: &str,
    t: &[Token],
    modules: &BTreeSet<String>,
) -> Vec<(Vec<String>, Option<String>)> {
    let mut out = Vec::new();
    for i in 0..t.len() {
        if t[i].text != "pub" {
            continue;
        }
        let mut j = i + 1;
        if t.get(j).is_some_and(|x| x.text == "(") {
            j = after_group(t, j);
        }
        if t.get(j).is_none_or(|x| x.text != "use") {
            continue;
        }
        j += 1;
        let (prefix, start) = match t.get(j).map(|x| x.text.as_str()) {
            Some("crate" | "super") => path_start(module, t, j),
            Some("self") => (segments(module), j + 2),
            Some(word) if modules.contains(&join(module, word)) => (segments(module), j),
            _ => continue,
        };
        use_tree(t, start, prefix, &mut out);
    }
    out
}
