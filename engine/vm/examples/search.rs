//! One information-set MCTS decision of an IR file, timed without Python:
//! `cargo run --release --example search -- IR PLAYERS ITERATIONS`.

mod common;

use std::time::Instant;

fn main() {
    let (game, players, iterations) = common::arguments("search IR.json PLAYERS ITERATIONS", 1000);
    let mut st = _vm::state::State::new(game, players, 1).expect("a new game");
    for _ in 0..6 {
        let first = st.legal(None)[0].clone();
        st.apply(&first, None).expect("a legal action");
    }
    let seat = st.pending.as_ref().expect("a decision").player;
    let mut det = st.determinized(seat, 5).expect("a copy");
    let actions = det.legal(Some(seat));
    let start = Instant::now();
    let chosen = _vm::bots::Mcts::new(1, iterations)
        .act(&actions, seat, Some(&mut det))
        .expect("a search");
    println!(
        "{iterations} iterations in {:.3} s: {chosen}",
        start.elapsed().as_secs_f64()
    );
}
