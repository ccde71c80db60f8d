//! Determinized copies of a mid-game state, timed without Python (CPU time of the copies):
//! `cargo run --release --example copies -- IR PLAYERS COPIES` (the state after its first ten options taken, the
//! copies seat 0's, each from a seed of its own). With `--features profile`, the nodes each rule function,
//! procedure and line of the rules evaluated in making them too (a copy asks its decision again).

mod common;

use _vm::bots::thread_seconds;

fn main() {
    let (game, players, copies) = common::arguments("copies IR.json PLAYERS COPIES");
    let copies: u32 = copies.parse().unwrap_or(1000);
    let mut st = _vm::state::State::new(game, players, 1).expect("a new game");
    for _ in 0..10 {
        let Some(first) = st.legal(None).first().cloned() else {
            break;
        };
        st.apply(&first, None).expect("a legal action");
    }
    #[cfg(feature = "profile")]
    _vm::profile::take(); // the copies' counts alone
    let start = thread_seconds();
    for seed in 0..copies {
        st.determinized(0, seed.into()).expect("a copy");
    }
    let took = thread_seconds() - start;
    println!(
        "{copies} copies in {took:.3} CPU-s: {:.2} µs a copy",
        took * 1e6 / f64::from(copies)
    );
    #[cfg(feature = "profile")]
    common::print_profile(&st.game);
}
