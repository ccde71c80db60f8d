//! Counts of what the rules do while games run (feature `profile`), to find where a game's time goes: every node
//! of an expression evaluated; each rule function's calls, with the nodes its body evaluated (those of the
//! functions it calls included, so a function that calls itself counts its inner calls again; its arguments are
//! its caller's); and each statement of a procedure, with the nodes it evaluated (those of the functions it
//! calls included, not those of the procedures it calls), summed by procedure and by line of the rules. A
//! function whose calls the VM inlines (a small expression given locals or literals) has no calls of its own: its
//! nodes count where it is used. Counts, not times: the same on every machine and every run. The examples
//! `playouts`, `search` and `copies` print them.
use crate::game::Game;
use std::cell::RefCell;
use std::collections::HashMap;

/// What one rule function, statement or procedure did: its runs and the nodes evaluated.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counts {
    pub runs: u64,
    pub nodes: u64,
}

impl Counts {
    fn add(&mut self, other: Counts) {
        self.runs += other.runs;
        self.nodes += other.nodes;
    }
}

/// The counts of one thread since its last `take`: functions by their index in the game, statements by their
/// procedure's index and their own.
#[derive(Debug, Default)]
pub struct Profile {
    pub nodes: u64,
    pub functions: Vec<Counts>,
    pub statements: Vec<Vec<Counts>>,
}

thread_local! {
    static PROFILE: RefCell<Profile> = RefCell::default();
}

/// One node evaluated.
pub(crate) fn node() {
    PROFILE.with(|p| p.borrow_mut().nodes += 1);
}

/// The nodes evaluated so far: what a call or a statement started from.
pub(crate) fn nodes() -> u64 {
    PROFILE.with(|p| p.borrow().nodes)
}

/// The body of a call of function `f` ended, begun when `since` nodes were evaluated.
pub(crate) fn function(f: u16, since: u64) {
    PROFILE.with(|p| {
        let p = &mut *p.borrow_mut();
        let nodes = p.nodes - since;
        count(&mut p.functions, usize::from(f), nodes);
    });
}

/// Statement `pc` of procedure `proc` ran, begun when `since` nodes were evaluated.
pub(crate) fn statement(proc: u16, pc: u32, since: u64) {
    PROFILE.with(|p| {
        let p = &mut *p.borrow_mut();
        let nodes = p.nodes - since;
        if p.statements.len() <= usize::from(proc) {
            p.statements.resize_with(usize::from(proc) + 1, Vec::new);
        }
        count(&mut p.statements[usize::from(proc)], pc as usize, nodes);
    });
}

fn count(rows: &mut Vec<Counts>, i: usize, nodes: u64) {
    if rows.len() <= i {
        rows.resize(i + 1, Counts::default());
    }
    rows[i].add(Counts { runs: 1, nodes });
}

/// This thread's counts, which start again from nothing.
pub fn take() -> Profile {
    PROFILE.with(|p| std::mem::take(&mut *p.borrow_mut()))
}

/// What the report calls things: the rule functions by index, and each procedure's name with the place of each of
/// its instructions (`path:line`).
pub struct Names {
    pub functions: Vec<String>,
    pub procedures: Vec<(String, Vec<String>)>,
}

impl Names {
    /// The names of `game`, whose IR is `ir` (the IR's function names; the game keeps no others).
    pub fn of(game: &Game, ir: &[u8]) -> Names {
        let functions = serde_json::from_slice::<serde_json::Value>(ir)
            .ok()
            .and_then(|j| {
                j["functions"].as_array().map(|fs| {
                    fs.iter()
                        .map(|f| f["name"].as_str().unwrap_or("?").to_string())
                        .collect()
                })
            })
            .unwrap_or_default();
        let procedures = game
            .procs
            .iter()
            .map(|p| {
                let lines = p.place.iter().map(|(line, _)| format!("{}:{line}", p.path)).collect();
                (p.name.to_string(), lines)
            })
            .collect();
        Names { functions, procedures }
    }
}

/// The counts as three tables, the costliest first: the rule functions, the procedures (their statements
/// summed) and the `lines` costliest lines of the rules (the statements written on each), each row with its
/// runs, nodes a run and share of all the nodes evaluated.
pub fn report(names: &Names, profile: &Profile, lines: usize) -> String {
    let unnamed = |i: usize| format!("#{i}");
    let functions: Vec<(String, Counts)> = profile
        .functions
        .iter()
        .enumerate()
        .map(|(i, c)| (names.functions.get(i).cloned().unwrap_or_else(|| unnamed(i)), *c))
        .collect();
    let mut procedures = vec![];
    let mut by_line: HashMap<String, Counts> = HashMap::new();
    for (i, statements) in profile.statements.iter().enumerate() {
        let (name, places) = names
            .procedures
            .get(i)
            .map_or((unnamed(i), &[][..]), |(n, p)| (n.clone(), &p[..]));
        let mut sum = Counts::default();
        for (pc, c) in statements.iter().enumerate() {
            sum.add(*c);
            if c.runs > 0 {
                let line = places.get(pc).cloned().unwrap_or_else(|| format!("{name} #{pc}"));
                by_line.entry(line).or_default().add(*c);
            }
        }
        procedures.push((name, sum));
    }
    let mut by_line: Vec<(String, Counts)> = by_line.into_iter().collect();
    by_line.sort_by(|(a, x), (b, y)| y.nodes.cmp(&x.nodes).then_with(|| a.cmp(b)));
    by_line.truncate(lines);
    let mut out = format!("{} nodes evaluated\n", profile.nodes);
    table(&mut out, "function", functions, profile.nodes);
    table(&mut out, "procedure (statements)", procedures, profile.nodes);
    table(&mut out, "line (statements)", by_line, profile.nodes);
    out
}

/// One table of `report`: the rows run at least once, the costliest first (ties by name).
fn table(out: &mut String, title: &str, mut rows: Vec<(String, Counts)>, total: u64) {
    rows.retain(|(_, c)| c.runs > 0);
    rows.sort_by(|(a, x), (b, y)| y.nodes.cmp(&x.nodes).then_with(|| a.cmp(b)));
    let width = rows
        .iter()
        .map(|(n, _)| n.chars().count())
        .max()
        .unwrap_or(0)
        .max(title.len());
    out.push_str(&format!(
        "{title:<width$} {:>12} {:>12} {:>7}\n",
        "runs", "nodes a run", "share"
    ));
    for (name, c) in rows {
        out.push_str(&format!(
            "{name:<width$} {:>12} {:>12.1} {:>6.1}%\n",
            c.runs,
            c.nodes as f64 / c.runs as f64,
            100.0 * c.nodes as f64 / total.max(1) as f64
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_counts_the_nodes_of_its_body_and_a_statement_those_it_evaluates() {
        take();
        node(); // an argument, the caller's
        let call = nodes();
        node();
        node();
        function(1, call);
        let line = nodes();
        node();
        statement(0, 2, line);
        let p = take();
        assert_eq!(p.nodes, 4);
        assert_eq!(p.functions, vec![Counts::default(), Counts { runs: 1, nodes: 2 }]);
        let ran = Counts { runs: 1, nodes: 1 };
        assert_eq!(p.statements, vec![vec![Counts::default(), Counts::default(), ran]]);
        assert_eq!(take().nodes, 0, "taken, the counts start again");
    }

    #[test]
    fn the_report_ranks_the_costliest_first_and_sums_statements_by_procedure_and_line() {
        let p = Profile {
            nodes: 20,
            functions: vec![
                Counts { runs: 1, nodes: 2 },
                Counts::default(),
                Counts { runs: 2, nodes: 6 },
            ],
            statements: vec![
                vec![Counts { runs: 4, nodes: 1 }, Counts { runs: 1, nodes: 3 }],
                vec![Counts { runs: 2, nodes: 8 }],
            ],
        };
        let names = Names {
            functions: vec!["cheap".into(), "never".into()],
            procedures: vec![
                ("turn".into(), vec!["g.yaml:5".into(), "g.yaml:5".into()]),
                ("walk".into(), vec!["g.yaml:9".into()]),
            ],
        };
        let text = report(&names, &p, 10);
        let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split_whitespace().collect()).collect();
        let expected: Vec<Vec<&str>> = vec![
            vec!["20", "nodes", "evaluated"],
            vec!["function", "runs", "nodes", "a", "run", "share"],
            vec!["#2", "2", "3.0", "30.0%"], // a function the names lack goes by its index
            vec!["cheap", "1", "2.0", "10.0%"],
            // "never" was never called: left out
            vec!["procedure", "(statements)", "runs", "nodes", "a", "run", "share"],
            vec!["walk", "2", "4.0", "40.0%"],
            vec!["turn", "5", "0.8", "20.0%"],
            vec!["line", "(statements)", "runs", "nodes", "a", "run", "share"],
            vec!["g.yaml:9", "2", "4.0", "40.0%"],
            vec!["g.yaml:5", "5", "0.8", "20.0%"],
        ];
        assert_eq!(rows, expected);
        assert_eq!(
            report(&names, &p, 1).lines().count(),
            expected.len() - 1,
            "the costliest lines alone"
        );
    }
}
