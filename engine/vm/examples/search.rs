//! One information-set MCTS decision of an IR file, timed without Python:
//! `cargo run --release --example search -- IR PLAYERS ITERATIONS`.

use std::rc::Rc;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: search IR.json PLAYERS ITERATIONS");
        std::process::exit(2);
    }
    let bytes = std::fs::read(&args[1]).unwrap_or_else(|e| {
        eprintln!("cannot read {}: {e}", args[1]);
        std::process::exit(2)
    });
    let game = Rc::new(_vm::game::Game::load(&bytes).unwrap_or_else(|e| {
        eprintln!("IR refused: {e}");
        std::process::exit(1)
    }));
    let players: usize = args[2].parse().unwrap_or(2);
    let iterations: usize = args[3].parse().unwrap_or(1000);
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
