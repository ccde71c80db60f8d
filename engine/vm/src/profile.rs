//! Counts of what the rules do while games run (feature `profile`), to find where a game's time goes: every node
//! of an expression evaluated; each rule function's calls, with the nodes its body evaluated (those of the
//! functions it calls included, so a function that calls itself counts its inner calls again; its arguments are
//! its caller's); and each procedure's statements, with the nodes they evaluated (those of the functions they
//! call included, not those of the procedures they call). A function whose calls the VM inlines (a small
//! expression given locals or literals) has no calls of its own: its nodes count where it is used. Counts, not
//! times: the same on every machine and every run. The examples `playouts`, `search` and `copies` print them.

use std::cell::RefCell;

/// What one rule function or procedure did: its calls (a procedure: its statements run) and the nodes evaluated.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counts {
    pub runs: u64,
    pub nodes: u64,
}

/// The counts of one thread since its last `take`; functions and procedures by their index in the game.
#[derive(Debug, Default)]
pub struct Profile {
    pub nodes: u64,
    pub functions: Vec<Counts>,
    pub procedures: Vec<Counts>,
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
    add(f, since, |p| &mut p.functions);
}

/// A statement of procedure `proc` ran, begun when `since` nodes were evaluated.
pub(crate) fn statement(proc: u16, since: u64) {
    add(proc, since, |p| &mut p.procedures);
}

fn add(i: u16, since: u64, rows: fn(&mut Profile) -> &mut Vec<Counts>) {
    PROFILE.with(|p| {
        let p = &mut *p.borrow_mut();
        let nodes = p.nodes - since;
        let rows = rows(p);
        if rows.len() <= usize::from(i) {
            rows.resize(usize::from(i) + 1, Counts::default());
        }
        rows[usize::from(i)].runs += 1;
        rows[usize::from(i)].nodes += nodes;
    });
}

/// This thread's counts, which start again from nothing.
pub fn take() -> Profile {
    PROFILE.with(|p| std::mem::take(&mut *p.borrow_mut()))
}

/// The counts as two tables, the costliest first: the rule functions and the procedures (their names by index:
/// the IR's, `Game::procs`'), each with its runs, nodes a run and share of all the nodes evaluated.
pub fn report(functions: &[String], procedures: &[String], profile: &Profile) -> String {
    let total = profile.nodes.max(1) as f64;
    let mut out = format!("{} nodes evaluated\n", profile.nodes);
    for (title, rows, names) in [
        ("function", &profile.functions, functions),
        ("procedure (statements)", &profile.procedures, procedures),
    ] {
        let mut ranked: Vec<(usize, &Counts)> = rows.iter().enumerate().filter(|(_, c)| c.runs > 0).collect();
        ranked.sort_by_key(|(_, c)| std::cmp::Reverse(c.nodes));
        out.push_str(&format!(
            "{title:<32} {:>12} {:>12} {:>7}\n",
            "runs", "nodes a run", "share"
        ));
        for (i, c) in ranked {
            let name = names.get(i).map_or_else(|| format!("#{i}"), String::clone);
            out.push_str(&format!(
                "{name:<32} {:>12} {:>12.1} {:>6.1}%\n",
                c.runs,
                c.nodes as f64 / c.runs as f64,
                100.0 * c.nodes as f64 / total
            ));
        }
    }
    out
}

/// The names of an IR's rule functions, by index (empty if the bytes hold none).
pub fn function_names(ir: &[u8]) -> Vec<String> {
    let Ok(j) = serde_json::from_slice::<serde_json::Value>(ir) else {
        return vec![];
    };
    j["functions"]
        .as_array()
        .map(|fs| {
            fs.iter()
                .map(|f| f["name"].as_str().unwrap_or("?").to_string())
                .collect()
        })
        .unwrap_or_default()
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
        statement(0, line);
        let p = take();
        assert_eq!(p.nodes, 4);
        assert_eq!(p.functions, vec![Counts::default(), Counts { runs: 1, nodes: 2 }]);
        assert_eq!(p.procedures, vec![Counts { runs: 1, nodes: 1 }]);
        assert_eq!(take().nodes, 0, "taken, the counts start again");
    }

    #[test]
    fn the_report_ranks_the_costliest_first_and_names_each_by_index() {
        let p = Profile {
            nodes: 10,
            functions: vec![
                Counts { runs: 1, nodes: 2 },
                Counts::default(),
                Counts { runs: 2, nodes: 6 },
            ],
            procedures: vec![Counts { runs: 4, nodes: 1 }],
        };
        let names = ["cheap".to_string(), "never".to_string()];
        let text = report(&names, &["turn".to_string()], &p);
        let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split_whitespace().collect()).collect();
        assert_eq!(rows[0], ["10", "nodes", "evaluated"]);
        assert_eq!(rows[2], ["#2", "2", "3.0", "60.0%"]);
        assert_eq!(rows[3], ["cheap", "1", "2.0", "20.0%"]);
        assert_eq!(rows[4][0], "procedure", "a function never called is left out");
        assert_eq!(rows[5], ["turn", "4", "0.2", "10.0%"]);
        assert_eq!(rows.len(), 6);
    }

    #[test]
    fn function_names_are_read_from_the_ir_in_order() {
        let ir = br#"{"functions": [{"name": "a"}, {"name": "b"}]}"#;
        assert_eq!(function_names(ir), vec!["a", "b"]);
        assert!(function_names(b"not json").is_empty());
    }
}
