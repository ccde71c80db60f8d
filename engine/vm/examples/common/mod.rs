//! What the timing examples share: reading their arguments and the IR file, exiting with a line on bad input;
//! with the feature `profile`, printing the rules' counts.

use std::rc::Rc;

/// The game of the IR file named first, the number of players second and the example's own argument third;
/// exits with a usage line (`usage` names the third) otherwise.
pub fn arguments(usage: &str) -> (Rc<_vm::game::Game>, usize, String) {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: {usage}");
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
    (game, args[2].parse().unwrap_or(2), args[3].clone())
}

/// The rules' counts since the last `profile::take` (feature `profile`): where the example's work went.
#[cfg(feature = "profile")]
pub fn print_profile(game: &_vm::game::Game) {
    let ir = std::fs::read(std::env::args().nth(1).unwrap_or_default()).unwrap_or_default();
    let names = _vm::profile::Names::of(game, &ir);
    print!("{}", _vm::profile::report(&names, &_vm::profile::take(), 20));
}
