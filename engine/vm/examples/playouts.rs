//! Random playouts of an IR file, timed without Python: `cargo run --release --example playouts -- IR PLAYERS GAMES`.

use std::rc::Rc;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: playouts IR.json PLAYERS GAMES");
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
    let games: _vm::rng::Seed = args[3].parse().unwrap_or(100);
    let start = Instant::now();
    let mut decisions = 0;
    for seed in 0..games {
        match _vm::playout::play_game(
            &game,
            &vec!["random".to_string(); players],
            seed,
            100_000,
            _vm::bots::EXPLORE,
        ) {
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
}
