//! One information-set MCTS decision of an IR file, timed without Python (CPU time of the search) and told
//! where its iterations went: `cargo run --release --example search -- IR PLAYERS ITERATIONS[/ROLLOUT]`
//! (or `Ts[/ROLLOUT]`: T CPU seconds), the parameter of a bot spec `mcts:...`. With `--features profile`, the nodes
//! each rule function, procedure and line of the rules evaluated in the search too.

mod common;

use _vm::bots::{thread_seconds, Budget, Mcts};

fn main() {
    let (game, players, param) = common::arguments("search IR.json PLAYERS ITERATIONS[/ROLLOUT]");
    let Some((budget, rollout)) = Budget::parse(&param) else {
        eprintln!("expected iterations (1000) or CPU seconds (0.2s), then optionally /ROLLOUT, got {param}");
        std::process::exit(2)
    };
    let mut st = _vm::state::State::new(game, players, 1).expect("a new game");
    for _ in 0..6 {
        let first = st.legal(None)[0].clone();
        st.apply(&first, None).expect("a legal action");
    }
    let seat = st.pending.as_ref().expect("a decision").player;
    let mut det = st.determinized(seat, 5).expect("a copy");
    let actions = det.legal(Some(seat));
    let mut mcts = Mcts::new(1, budget, rollout);
    #[cfg(feature = "profile")]
    _vm::profile::take(); // the search's counts alone
    let start = thread_seconds();
    let chosen = mcts.act(&actions, seat, Some(&mut det)).expect("a search");
    let took = thread_seconds() - start;
    let t = mcts.tally;
    let per = |n: u64| n as f64 / t.iterations as f64;
    println!(
        "{} iterations in {took:.3} CPU-s: {chosen}; per iteration {:.1} decisions down the tree, {:.1} in the \
         rollout, {:.0}% of rollouts finished",
        t.iterations,
        per(t.tree),
        per(t.rollout),
        100.0 * per(t.finished)
    );
    #[cfg(feature = "profile")]
    common::print_profile(&det.game);
}
