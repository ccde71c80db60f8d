//! Playouts of an IR file between random bots, timed without Python: `cargo run --release --example playouts -- IR PLAYERS GAMES`
//! (`BOT=greedy` in the environment: greedy bots, each deciding on its determinized copy). With `--features profile`,
//! the nodes each rule function, procedure and line evaluated in those games too.

mod common;

use std::time::Instant;

fn main() {
    let (game, players, games) = common::arguments("playouts IR.json PLAYERS GAMES");
    let games: _vm::rng::Seed = games.parse().unwrap_or(100);
    let start = Instant::now();
    let mut decisions = 0;
    for seed in 0..games {
        let kinds = vec![std::env::var("BOT").unwrap_or("random".into()); players];
        let bots = _vm::playout::make_bots(&kinds, seed, _vm::bots::EXPLORE).expect("bots the VM plays");
        match _vm::playout::play_game(&game, bots, seed, 100_000) {
            Ok(p) => decisions += p.decisions,
            Err(e) => {
                eprintln!("seed {seed}: {e:?}");
                std::process::exit(1)
            }
        }
    }
    let took = start.elapsed().as_secs_f64();
    println!(
        "{games} games, {decisions} decisions in {took:.3} s: {:.2} µs per decision, {:.1} µs per game",
        took * 1e6 / decisions as f64,
        took * 1e6 / games as f64
    );
    #[cfg(feature = "profile")]
    common::print_profile(&game);
}
