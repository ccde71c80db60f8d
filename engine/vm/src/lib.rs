//! Tabletop's native runtime: the IR lowered by engine/runtime/lower.py, run with the reference's meaning.
//!
//! `game` reads and verifies an IR (`table` lays out its board tables), `compile` turns its expressions into
//! closures once, `state` holds a running game and its loop, `eval` the expressions and operations, `json` the
//! saved-state format, `playout` whole games in one call, `record` them as the playtest lab records them,
//! `zones` where the cards lie, `several` the options of choosing several, `shared` the one-word lists that
//! values hold; `py` (feature `python`) is the PyO3 face, `engine._vm`; `profile` (feature `profile`) counts
//! where the rules' work goes.

mod alloc;
pub mod bots;
pub mod chance;
pub mod close;
pub mod compile;
pub mod derive;
pub mod det;
pub mod dice;
pub mod eval;
pub mod game;
pub mod house;
pub mod json;
pub mod kinds;
pub mod maps;
pub mod playout;
#[cfg(feature = "profile")]
pub mod profile;
pub mod pyrand;
pub mod record;
pub mod rng;
pub mod several;
pub mod shared;
pub mod starts;
pub mod state;
pub mod table;
pub mod texts;
pub mod value;
pub mod zones;

#[cfg(feature = "python")]
mod py;

#[global_allocator]
static GLOBAL: alloc::Mimalloc = alloc::Mimalloc;
