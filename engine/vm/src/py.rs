//! The Python face (`engine._vm`): one call does a whole unit of work; errors cross as exceptions.

use crate::bots::{Budget, Greedy, Mcts, DEFAULT_ROLLOUT, EXPLORE};
use crate::chance::{self, Drawn, Stop};
use crate::game::{FxMap, Game};
use crate::json::{hist_fields, Field, Key};
use crate::playout;
use crate::pyrand::PyRandom;
use crate::record::{self, Lab, Record, Stat};
use crate::rng::Seed;
use crate::shared::Shared;
use crate::state::{Error, Hist, Pending, State};
use crate::value::V;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::rc::Rc;

create_exception!(
    _vm,
    VmError,
    PyException,
    "A failure of the VM: the base of the others."
);
create_exception!(
    _vm,
    VmRuleError,
    VmError,
    "A rule failed: args are (path, line, col, code, message)."
);
create_exception!(
    _vm,
    VmIllegalAction,
    VmError,
    "An action that is not legal now; the state is unchanged."
);
create_exception!(
    _vm,
    VmStateError,
    VmError,
    "A saved state or IR that does not fit: refused in one line."
);
create_exception!(
    _vm,
    VmStopped,
    VmStateError,
    "A step of a game that stopped on a rule error (its VM state's `fault`); the state is unchanged."
);
create_exception!(
    _vm,
    VmChanceNeeded,
    VmError,
    "Explicit chance: the rules draw at random once more than the outcomes given; args are (kind, outcomes)."
);
create_exception!(
    _vm,
    VmEngineBug,
    VmError,
    "The VM itself is wrong, named by its instruction."
);

fn py_err(e: Error) -> PyErr {
    match e {
        Error::Rule(d) => VmRuleError::new_err((d.path, d.line, d.col, d.code, d.message)),
        Error::Illegal(m) => VmIllegalAction::new_err(m),
        Error::Stopped(m) => VmStopped::new_err(m),
        Error::State(m) => VmStateError::new_err(m),
        Error::Bug(m) => VmEngineBug::new_err(m),
    }
}

/// A failed call with explicit chance as its Python error.
fn drawn_err(e: Drawn) -> PyErr {
    match e {
        Drawn::Stopped(Stop::Needed(kind, of)) => VmChanceNeeded::new_err((kind, of)),
        Drawn::Stopped(Stop::Refused(m)) => VmStateError::new_err(m),
        Drawn::Failed(e) => py_err(e),
    }
}

/// `f` run on `st` (a copy: the caller's state stays as it was if it fails) with the rules' draws taking `draws`
/// (chance.rs `drawn`), guarded as `guarded` runs a call: `st` after it, or the error.
fn guarded_drawn(mut st: State, draws: Vec<i64>, f: impl FnOnce(&mut State) -> Result<(), Error>) -> PyResult<State> {
    unpanicked(|| chance::drawn(&mut st, draws, f))
        .map_err(VmEngineBug::new_err)?
        .map_err(drawn_err)?;
    Ok(st)
}

/// Run `f`, turning a panic into an engine-bug error: a fault in the VM never ends the process.
fn guarded<T>(f: impl FnOnce() -> Result<T, Error>) -> PyResult<T> {
    unpanicked(f).map_err(VmEngineBug::new_err)?.map_err(py_err)
}

/// Run `f` as `guarded` does, with any failure as the one line the Python driver would print.
fn guarded_raw<T>(f: impl FnOnce() -> Result<T, Error>) -> Result<T, String> {
    unpanicked(f)?.map_err(|e| playout::message(&e))
}

/// `f`'s answer, or the text of the panic that stopped it.
fn unpanicked<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| panic_text(&*p))
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    let what = p
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into());
    format!("engine bug in the VM: {what}")
}

#[pyclass(module = "engine._vm")]
struct VmGame {
    game: Rc<Game>,
    lab: Lab,
}

// A game and its states are used by whichever Python thread holds them (a web table's server thread plays the
// states a request made): they go between threads, so the classes below are `Send` and `Sync`, though they hold
// `Rc`s and `Shared` lists (counted alike, without atomics) shared with one another.
//
// SAFETY: the counts (and everything else these objects own) are only touched by Rust code of this module run
// from a Python call, which holds the GIL from the call's start to its end: no method releases it
// (`allow_threads` is used nowhere), and the GIL is given up only inside Python code this module calls (the
// `done` callback of `records`, or a collection a new Python object may set off), never within a change of
// a count or of a value: another thread may run there, but in turn, never at once. The module is built
// for the stable ABI of the GIL-ful interpreter (`abi3`; a free-threaded Python cannot load it), so two threads
// never run this module's code at once, and taking the GIL orders one thread's changes before the next one's
// reads: the counts and values are never raced on. Python frees an object with the GIL held, so drops are
// ordered too.
unsafe impl Send for VmGame {}
unsafe impl Sync for VmGame {}
unsafe impl Send for VmState {}
unsafe impl Sync for VmState {}

#[pymethods]
impl VmGame {
    #[new]
    fn new(ir: &[u8]) -> PyResult<Self> {
        let game = guarded(|| Game::load(ir).map_err(|m| Error::State(format!("IR refused: {m}"))))?;
        let lab = Lab::from_ir(ir).map_err(|m| VmStateError::new_err(format!("IR refused: {m}")))?;
        Ok(VmGame {
            game: Rc::new(game),
            lab,
        })
    }

    #[getter]
    fn id(&self) -> String {
        self.game.id.clone()
    }

    /// A new game at its first decision; `draws`: the setup's draws take these outcomes (explicit chance),
    /// all of them, and VmChanceNeeded says what the next draw is if the setup draws more.
    #[pyo3(signature = (players, seed, draws = None))]
    fn new_game(&self, players: usize, seed: PySeed, draws: Option<Vec<i64>>) -> PyResult<VmState> {
        let seed = seed.0;
        let Some(draws) = draws else {
            return guarded(|| State::new(self.game.clone(), players, seed)).map(VmState::new);
        };
        let unstarted = guarded(|| State::unstarted(self.game.clone(), players, seed))?;
        guarded_drawn(unstarted, draws, State::start).map(VmState::new)
    }

    fn state_from_json(&self, text: &str) -> PyResult<VmState> {
        guarded(|| State::from_data(self.game.clone(), text)).map(VmState::new)
    }

    /// Whole games between bots, one per seed, in one call — game for game those `tabletop simulate` plays
    /// in Python for the same seeds. `bots`: one spec for every seat or one per seat ("random", "greedy",
    /// "mcts:N"); `explore`: how often their greedy choices are random (`GreedyAgent.explore`). A list of
    /// dicts {seed, scores, results, reason, decisions, cut_off, error}: a game that failed has its one-line
    /// `error` (and no scores), the others go on.
    #[pyo3(signature = (players, seeds, bots = BotSpecs::One("random".into()), limit = 5000, explore = EXPLORE))]
    fn playouts<'py>(
        &self,
        py: Python<'py>,
        players: usize,
        seeds: Vec<Seed>,
        bots: BotSpecs,
        limit: u64,
        explore: f64,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let kinds = match bots {
            BotSpecs::One(k) => vec![k; players],
            BotSpecs::Each(ks) => ks,
        };
        if kinds.len() != players {
            return Err(VmStateError::new_err(format!(
                "{} bots for {players} players",
                kinds.len()
            )));
        }
        playout::make_bots(&kinds, 0, explore).map_err(VmStateError::new_err)?;
        let mut out = vec![];
        for batch in seeds.chunks(playout::games_made_together(&kinds)) {
            let bots = playout::make_bots_of_games(&kinds, batch, explore).map_err(VmStateError::new_err)?;
            for (&seed, bots) in batch.iter().zip(bots) {
                // the keys are made once (interned), not at each of the thousands of games a call may play
                let d = PyDict::new(py);
                d.set_item(intern!(py, "seed"), seed)?;
                let (decisions, cut_off, error) =
                    (intern!(py, "decisions"), intern!(py, "cut_off"), intern!(py, "error"));
                match guarded_raw(|| playout::play_game(&self.game, bots, seed, limit)) {
                    Ok(g) => {
                        d.set_item(intern!(py, "scores"), g.scores)?;
                        d.set_item(intern!(py, "results"), g.results)?;
                        d.set_item(intern!(py, "reason"), &*g.reason)?;
                        d.set_item(decisions, g.decisions)?;
                        d.set_item(cut_off, g.cut_off)?;
                        d.set_item(error, py.None())?;
                    }
                    Err(e) => {
                        d.set_item(decisions, 0)?;
                        d.set_item(cut_off, false)?;
                        d.set_item(error, e)?;
                    }
                }
                out.push(d);
            }
        }
        Ok(out)
    }

    /// Whole games recorded as the playtest lab records them (engine/lab/games.py `record_game`, the same
    /// record for the same seed), without a Python call per decision: `games` are (seed, bot spec per seat);
    /// `done(record)` is called as each game ends, so a Ctrl-C between games stops the batch there. A record
    /// holds `legal` (the options at each decision) where `record_game` holds the branching it bins from them.
    #[pyo3(signature = (players, games, done, limit = 5000, explore = EXPLORE))]
    fn records(
        &self,
        py: Python<'_>,
        players: usize,
        games: Vec<(Seed, Vec<String>)>,
        done: Bound<'_, PyAny>,
        limit: u64,
        explore: f64,
    ) -> PyResult<()> {
        for (seed, kinds) in games {
            if kinds.len() != players {
                return Err(VmStateError::new_err(format!(
                    "{} bots for {players} players",
                    kinds.len()
                )));
            }
            playout::make_bots(&kinds, 0, explore).map_err(VmStateError::new_err)?;
            let rec = guarded_raw(|| Ok(record::record_game(&self.game, &self.lab, &kinds, seed, limit, explore)))
                .unwrap_or_else(|bug| Record {
                    seed,
                    error: Some(bug),
                    ..Record::default()
                });
            done.call1((record_dict(py, &rec, &kinds)?,))?;
        }
        Ok(())
    }
}

/// A record as the dict `record_game` makes.
fn record_dict<'py>(py: Python<'py>, rec: &Record, kinds: &[String]) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("seed", rec.seed)?;
    d.set_item("bots", kinds)?;
    d.set_item("error", &rec.error)?;
    d.set_item("cut_off", rec.cut_off)?;
    d.set_item("decisions", rec.decisions)?;
    d.set_item("turns", rec.turns)?;
    d.set_item("rounds", rec.rounds)?;
    d.set_item("legal", &rec.legal)?;
    let choices = PyList::empty(py);
    for c in &rec.choices {
        let offered: Vec<&str> = c.offered.iter().map(|o| &**o).collect();
        let row = PyList::new(
            py,
            [
                c.seat.into_pyobject(py)?.into_any(),
                (*c.action).into_pyobject(py)?.into_any(),
                offered.into_pyobject(py)?.into_any(),
                (*c.kind).into_pyobject(py)?.into_any(),
            ],
        )?;
        choices.append(row)?;
    }
    d.set_item("choices", choices)?;
    d.set_item("trace", &rec.trace)?;
    if let Some(end) = &rec.end {
        d.set_item("results", &end.results)?;
        d.set_item("reason", &*end.reason)?;
        d.set_item("scores", &end.scores)?;
        d.set_item("final", &end.sides)?;
        let stats = PyDict::new(py);
        for (id, value) in &end.stats {
            match value {
                Stat::One(v) => stats.set_item(id, v)?,
                Stat::Each(vs) => stats.set_item(id, vs)?,
            }
        }
        d.set_item("stats", stats)?;
    }
    Ok(d)
}

/// Plain JSON data as the Python objects `json.loads` makes of its text.
fn py_value<'py>(py: Python<'py>, j: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value as J;
    Ok(match j {
        J::Null => py.None().into_bound(py),
        J::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        J::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any(),
            (None, Some(u)) => u.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        J::String(s) => s.into_pyobject(py)?.into_any(),
        J::Array(items) => {
            let list = PyList::empty(py);
            for x in items {
                list.append(py_value(py, x)?)?;
            }
            list.into_any()
        }
        J::Object(fields) => {
            let dict = PyDict::new(py);
            for (k, x) in fields {
                dict.set_item(k, py_value(py, x)?)?;
            }
            dict.into_any()
        }
    })
}

/// Makes the values of the rules as the Python objects `json.loads` makes of their saved form
/// (`json::value_json`), with no JSON between; each text of the game's table is made once, and handed over
/// again as the same string (its hash kept: a dict keyed by it is made without hashing it anew).
struct Maker<'a> {
    g: &'a Game,
    made: &'a mut Made,
}

/// What a `Maker` made that the next look may hand over again: the texts of the table and the history's keys, and
/// the lists made by this look and by the one before (the options of a decision are the values it asks and a
/// local of its frame: one list, made once).
#[derive(Default)]
struct Made {
    texts: Vec<Option<Py<PyString>>>,
    keys: [Option<Py<PyString>>; Key::ALL],
    lists: Lists,
    lists_before: Lists,
}

/// Python lists made of shared lists of the rules, by where the list is (kept alive here: never another's).
type Lists = FxMap<usize, (Shared<V>, Py<PyList>)>;

impl Maker<'_> {
    fn text<'py>(&mut self, py: Python<'py>, id: u32) -> Bound<'py, PyString> {
        let i = id as usize;
        let texts = &mut self.made.texts;
        if texts.len() <= i {
            texts.resize_with(i + 1, || None);
        }
        let made = texts[i].get_or_insert_with(|| PyString::intern(py, self.g.text(id)).unbind());
        made.bind(py).clone()
    }

    fn value<'py>(&mut self, py: Python<'py>, v: &V) -> PyResult<Bound<'py, PyAny>> {
        Ok(match v {
            V::Unset | V::None => py.None().into_bound(py),
            V::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
            V::Int(i) => i.into_pyobject(py)?.into_any(),
            V::Str(s) => self.text(py, *s).into_any(),
            V::Text(t) => PyString::new(py, t).into_any(),
            V::List(items) => self.shared_list(py, items)?.into_any(),
            V::Rec(fields) => {
                let dict = PyDict::new(py);
                for (k, x) in fields.iter() {
                    match crate::maps::entry(*k, x) {
                        (V::Text(t), x) => dict.set_item(&*t, self.value(py, x)?)?,
                        (_, x) => dict.set_item(self.text(py, *k), self.value(py, x)?)?,
                    }
                }
                dict.into_any()
            }
            V::Iter(i, items) => {
                PyList::new(py, [i.into_pyobject(py)?.into_any(), self.list(py, items)?.into_any()])?.into_any()
            }
        })
    }

    /// A shared list of the rules: the one this look or the one before made of it, if any.
    fn shared_list<'py>(&mut self, py: Python<'py>, items: &Shared<V>) -> PyResult<Bound<'py, PyList>> {
        let at = items.address();
        let made = &mut *self.made;
        if let Some((_, list)) = made.lists.get(&at) {
            return Ok(list.bind(py).clone());
        }
        let list = match made.lists_before.get(&at) {
            Some((_, list)) => list.bind(py).clone(),
            None => self.list(py, items)?,
        };
        self.made.lists.insert(at, (items.clone(), list.clone().unbind()));
        Ok(list)
    }

    fn list<'py>(&mut self, py: Python<'py>, items: &[V]) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for x in items {
            list.append(self.value(py, x)?)?;
        }
        Ok(list)
    }

    /// Named values (variables, a frame's locals) as a dict, in their order; `Unset` ones (locals not set yet)
    /// left out.
    fn named<'py>(&mut self, py: Python<'py>, names: &[Py<PyString>], values: &[V]) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, v) in names.iter().zip(values) {
            if !matches!(v, V::Unset) {
                dict.set_item(name.bind(py), self.value(py, v)?)?;
            }
        }
        Ok(dict)
    }

    /// The name of a history entry's field, made once.
    fn key<'py>(&mut self, py: Python<'py>, key: Key) -> Bound<'py, PyString> {
        let made = self.made.keys[key as usize].get_or_insert_with(|| PyString::intern(py, key.name()).unbind());
        made.bind(py).clone()
    }

    /// An entry of the history as `json.loads` makes it of its saved form (`json::hist_fields`).
    fn hist<'py>(&mut self, py: Python<'py>, h: &Hist) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        hist_fields(h, |key, field| {
            let key = self.key(py, key);
            match field {
                Field::Number(n) => d.set_item(&key, n),
                Field::Name(id) => d.set_item(&key, self.text(py, id)),
                Field::Text(t) => d.set_item(&key, t),
                Field::Truth => d.set_item(&key, true),
                Field::Null => d.set_item(&key, py.None()),
                Field::Seats(seats) => d.set_item(&key, seats),
            }
        })?;
        Ok(d)
    }

    /// The decision asked as the Python backend holds it (`json::pending_json`'s fields, in its order).
    fn pending<'py>(&mut self, py: Python<'py>, p: &Pending) -> PyResult<Bound<'py, PyDict>> {
        let ids = |ids: &[Rc<str>]| PyList::new(py, ids.iter().map(|i| &**i));
        let d = PyDict::new(py);
        d.set_item(intern!(py, "player"), p.player)?;
        d.set_item(intern!(py, "ids"), ids(&p.ids)?)?;
        d.set_item(intern!(py, "values"), self.shared_list(py, &p.values)?)?;
        d.set_item(intern!(py, "secret"), p.secret)?;
        d.set_item(intern!(py, "kind"), &*p.kind)?;
        if let Some(t) = &p.together {
            let all = PyDict::new(py);
            all.set_item("seats", &t.seats)?;
            let each_ids = PyList::empty(py);
            for i in &t.ids {
                each_ids.append(ids(i)?)?;
            }
            all.set_item("ids", each_ids)?;
            let each_values = PyList::empty(py);
            for v in &t.values {
                each_values.append(self.shared_list(py, v)?)?;
            }
            all.set_item("values", each_values)?;
            all.set_item("chosen", &t.chosen)?;
            d.set_item("together", all)?;
        }
        Ok(d)
    }
}

/// Python strings of `names`, made once.
fn strings(py: Python<'_>, names: impl Iterator<Item = impl AsRef<str>>) -> Vec<Py<PyString>> {
    names.map(|n| PyString::intern(py, n.as_ref()).unbind()).collect()
}

/// One bot spec for every seat, or one per seat.
#[derive(FromPyObject)]
enum BotSpecs {
    One(String),
    Each(Vec<String>),
}

/// A state seen from Python. Copies share one `State` until either is changed (copy-on-write): `clone`
/// costs a count, and the copy is made by the first change, of the one changed.
#[pyclass(module = "engine._vm")]
struct VmState {
    st: Rc<State>,
    /// Made at the first look: a copy that is never looked at (a search's) costs one pointer.
    looked: Option<Box<Looked>>,
    /// The Python texts of the option ids `legal_actions` handed over, by the id's address (the id kept alive
    /// beside, so that no other text takes its address): an id offered again is the same object, not a new one.
    ids: FxMap<usize, (Rc<str>, Py<PyString>)>,
    /// The places the last `determinized` dealt anew, kept while the state is unchanged: a search asks many
    /// copies of one state.
    hidden: Option<crate::det::Hidden>,
    /// The Python backend's copy of this state for reading (`State.for_reading`), made at most once a decision,
    /// and the copy of an earlier decision, whose log and history lists the next copy extends. A step of the
    /// state makes the first the second, whichever way the step is taken.
    reading: Option<Py<PyAny>>,
    read_before: Option<Py<PyAny>>,
}

/// The most Python texts of option ids a state keeps (past it, they are made afresh).
const KEPT_IDS: usize = 4096;

/// A Python object a look handed over, with what it was made of.
type Kept<T, O> = Option<(T, Py<O>)>;

/// A procedure's name and its locals' names.
type ProcNames = (Py<PyString>, Vec<Py<PyString>>);

/// A frame a look handed over: its procedure, pc and locals, the Python object of each local set, the frame.
type KeptFrame = (u16, u32, Vec<V>, Vec<Option<Py<PyAny>>>, Py<PyList>);

/// What the last `look` of a state handed over, with what it was made of, so that the next look hands over
/// again as the same Python objects what has not changed, and makes only what has (a reader looks at every
/// decision, and a decision changes little). A zone is unchanged while it holds the cards kept here, in order;
/// a value while it is the very value kept (the same shared list or record, or an equal number, truth or text
/// of the table); each seat's `seen` only grows. What is handed over is never changed after: a changed dict
/// or list is a new copy. A reader takes it as read-only, as the Python backend's values are.
#[derive(Default)]
struct Looked {
    made: Made,
    zone_names: Vec<Py<PyString>>,
    var_names: Vec<Py<PyString>>,
    pvar_names: Vec<Py<PyString>>,
    /// Per procedure (once a frame of it is handed over): its name and its locals' names.
    procs: Vec<Option<ProcNames>>,
    zones: Kept<crate::zones::Zones, PyDict>,
    loc: Kept<Vec<u32>, PyList>,
    know: Kept<Vec<u32>, PyList>,
    pinned: Kept<Vec<u32>, PyList>,
    vars: Kept<Vec<V>, PyDict>,
    pvars: Vec<Kept<Vec<V>, PyDict>>,
    stack: Vec<KeptFrame>,
    seen: Vec<(usize, Py<PyList>)>,
}

/// Whether `a` is the very value `b` (a shared list, record or text is compared by where it is, never by what
/// it holds: it is never changed once made).
fn identical(a: &V, b: &V) -> bool {
    match (a, b) {
        (V::Unset, V::Unset) | (V::None, V::None) => true,
        (V::Bool(x), V::Bool(y)) => x == y,
        (V::Int(x), V::Int(y)) => x == y,
        (V::Str(x), V::Str(y)) => x == y,
        (V::Text(x), V::Text(y)) => x.address() == y.address(),
        (V::List(x), V::List(y)) => Shared::ptr_eq(x, y),
        (V::Rec(x), V::Rec(y)) => Shared::ptr_eq(x, y),
        (V::Iter(i, x), V::Iter(j, y)) => i == j && Shared::ptr_eq(x, y),
        _ => false,
    }
}

fn all_identical(a: &[V], b: &[V]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| identical(x, y))
}

/// `items` as a Python list of `item(i)`: the list `kept` holds if it was made of equal items, else its copy
/// with the items that differ made anew (a new list if the length differs).
fn kept_list<'py>(
    py: Python<'py>,
    kept: &mut Kept<Vec<u32>, PyList>,
    items: &[u32],
    item: impl Fn(u32) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let list = match kept {
        Some((was, list)) if was.len() == items.len() => {
            if was[..] == *items {
                return Ok(list.bind(py).clone());
            }
            let copy = list.bind(py).get_slice(0, items.len());
            for (i, (a, &b)) in was.iter().zip(items).enumerate() {
                if *a != b {
                    copy.set_item(i, item(b)?)?;
                }
            }
            copy
        }
        _ => PyList::new(py, items.iter().map(|&i| item(i)).collect::<PyResult<Vec<_>>>()?)?,
    };
    *kept = Some((items.to_vec(), list.clone().unbind()));
    Ok(list)
}

/// Named values as a dict, in their order: the dict `kept` holds if every value is identical, else its copy
/// with the values that changed made anew.
fn kept_dict<'py>(
    py: Python<'py>,
    make: &mut Maker,
    kept: &mut Kept<Vec<V>, PyDict>,
    names: &[Py<PyString>],
    values: &[V],
) -> PyResult<Bound<'py, PyDict>> {
    let dict = match kept {
        Some((was, dict)) if was.len() == values.len() => {
            if all_identical(was, values) {
                return Ok(dict.bind(py).clone());
            }
            let copy = dict.bind(py).copy()?;
            for ((name, a), b) in names.iter().zip(was.iter()).zip(values) {
                if !identical(a, b) {
                    copy.set_item(name.bind(py), make.value(py, b)?)?;
                }
            }
            copy
        }
        _ => make.named(py, names, values)?,
    };
    *kept = Some((values.to_vec(), dict.clone().unbind()));
    Ok(dict)
}

impl Looked {
    /// The zones by name, in the game's order, as a dict of lists of cards (bottom first).
    fn zones<'py>(&mut self, py: Python<'py>, st: &State) -> PyResult<Bound<'py, PyDict>> {
        if self.zone_names.len() != st.zones.len() {
            let g = &st.game;
            self.zone_names = strings(py, st.seats().zones.iter().map(|&z| g.text(z)));
            self.zones = None;
        }
        let (out, was) = match &self.zones {
            Some((was, dict)) => (dict.bind(py).copy()?, Some(was)),
            None => (PyDict::new(py), None),
        };
        for (i, (name, cards)) in self.zone_names.iter().zip(st.zones.iter()).enumerate() {
            if was.is_none_or(|was| was[i] != *cards) {
                out.set_item(name.bind(py), PyList::new(py, cards.iter())?)?;
            }
        }
        self.zones = Some((st.zones.clone(), out.clone().unbind()));
        Ok(out)
    }

    /// Each card's zone by name (the zones' names are those `zones` made).
    fn loc<'py>(&mut self, py: Python<'py>, st: &State) -> PyResult<Bound<'py, PyList>> {
        let names = &self.zone_names;
        kept_list(py, &mut self.loc, &st.loc, |z| {
            Ok(names[z as usize].bind(py).clone().into_any())
        })
    }

    /// The game variables, then each seat's player variables.
    fn vars<'py>(&mut self, py: Python<'py>, st: &State) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyList>)> {
        let g = &*st.game;
        if self.var_names.len() != g.vars.len() || self.pvar_names.len() != g.pvars.len() {
            self.var_names = strings(py, g.vars.iter().map(|v| &v.name));
            self.pvar_names = strings(py, g.pvars.iter().map(|v| &v.name));
        }
        let mut make = Maker {
            g,
            made: &mut self.made,
        };
        let vars = kept_dict(py, &mut make, &mut self.vars, &self.var_names, &st.vars)?;
        self.pvars.resize_with(st.pvars.len(), || None);
        let pvars = PyList::empty(py);
        for (kept, values) in self.pvars.iter_mut().zip(&st.pvars) {
            pvars.append(kept_dict(py, &mut make, kept, &self.pvar_names, values)?)?;
        }
        Ok((vars, pvars))
    }

    /// The program frames `[procedure, pc, locals]` (the locals set so far only): a frame as it was while it
    /// has not moved on (the callers of the running one wait), a local as it was while it holds the same value.
    fn stack<'py>(&mut self, py: Python<'py>, st: &State) -> PyResult<Bound<'py, PyList>> {
        let g = &*st.game;
        let mut make = Maker {
            g,
            made: &mut self.made,
        };
        self.stack.truncate(st.stack.len());
        let out = PyList::empty(py);
        for (i, f) in st.stack.iter().enumerate() {
            let kept = self.stack.get(i).filter(|k| k.0 == f.proc);
            if kept.is_some_and(|k| k.1 == f.pc && all_identical(&k.2, &f.env)) {
                out.append(self.stack[i].4.bind(py))?;
                continue;
            }
            if self.procs.len() <= f.proc as usize {
                self.procs.resize_with(f.proc as usize + 1, || None);
            }
            let p = &g.procs[f.proc as usize];
            let (name, locals) = self.procs[f.proc as usize]
                .get_or_insert_with(|| (PyString::intern(py, &p.name).unbind(), strings(py, p.locals.iter())));
            let env = PyDict::new(py);
            let mut objects = Vec::with_capacity(f.env.len());
            for (j, (local, v)) in locals.iter().zip(&f.env).enumerate() {
                if matches!(v, V::Unset) {
                    objects.push(None);
                    continue;
                }
                let was = kept.and_then(|k| k.2.get(j).filter(|w| identical(w, v)).and(k.3[j].as_ref()));
                let object = match was {
                    Some(o) => o.bind(py).clone(),
                    None => make.value(py, v)?,
                };
                env.set_item(local.bind(py), &object)?;
                objects.push(Some(object.unbind()));
            }
            let frame = PyList::new(
                py,
                [
                    name.bind(py).clone().into_any(),
                    f.pc.into_pyobject(py)?.into_any(),
                    env.into_any(),
                ],
            )?;
            out.append(&frame)?;
            let made = (f.proc, f.pc, f.env.clone(), objects, frame.unbind());
            if i < self.stack.len() {
                self.stack[i] = made;
            } else {
                self.stack.push(made);
            }
        }
        Ok(out)
    }

    /// What each seat was shown, as a list per seat; a seat's list is extended by what it was shown since.
    fn seen<'py>(&mut self, py: Python<'py>, st: &State) -> PyResult<Bound<'py, PyList>> {
        if self.seen.len() != st.seen.len() {
            self.seen = (0..st.seen.len()).map(|_| (0, PyList::empty(py).unbind())).collect();
        }
        let out = PyList::empty(py);
        for ((had, list), now) in self.seen.iter_mut().zip(&st.seen) {
            if now.len() < *had {
                (*had, *list) = (0, PyList::empty(py).unbind());
            }
            if now.len() > *had {
                let grown = list.bind(py).get_slice(0, *had);
                for entry in &now.as_slice()[*had..] {
                    grown.append(py_value(py, entry)?)?;
                }
                (*had, *list) = (now.len(), grown.unbind());
            }
            out.append(list.bind(py))?;
        }
        Ok(out)
    }

    /// The decision asked, or None once the game is over; the face each die shows, or None in a game without.
    fn pending_and_faces<'py>(&mut self, py: Python<'py>, st: &State) -> PyResult<[Bound<'py, PyAny>; 2]> {
        let g = &*st.game;
        let mut make = Maker {
            g,
            made: &mut self.made,
        };
        let pending = match &st.pending {
            Some(p) => make.pending(py, p)?.into_any(),
            None => py.None().into_bound(py),
        };
        let faces = if g.dice.is_empty() {
            py.None().into_bound(py)
        } else {
            make.list(py, &st.faces)?.into_any()
        };
        Ok([pending, faces])
    }
}

impl VmState {
    fn new(st: State) -> VmState {
        VmState {
            st: Rc::new(st),
            looked: None,
            ids: FxMap::default(),
            hidden: None,
            reading: None,
            read_before: None,
        }
    }

    /// What follows a step taken: the copy for reading is of the decision before.
    fn stepped(&mut self) {
        if let Some(copy) = self.reading.take() {
            self.read_before = Some(copy);
        }
    }

    /// The state to change: this object's own (copied first if a clone still shares it).
    fn own(&mut self) -> &mut State {
        self.hidden = None;
        Rc::make_mut(&mut self.st)
    }
}

/// A seed from Python. One that fits 64 bits (nearly all) is read directly: the 128-bit conversion of the
/// limited API is made of several Python operations.
struct PySeed(Seed);

impl<'py> FromPyObject<'py> for PySeed {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        match ob.extract::<i64>() {
            Ok(seed) => Ok(PySeed(seed.into())),
            Err(_) => ob.extract::<Seed>().map(PySeed),
        }
    }
}

#[pymethods]
impl VmState {
    #[pyo3(signature = (seat = None))]
    fn legal_actions<'py>(&mut self, py: Python<'py>, seat: Option<u32>) -> PyResult<Bound<'py, PyList>> {
        let legal = self.st.legal(seat);
        if self.ids.len() + legal.len() > KEPT_IDS {
            self.ids.clear();
        }
        if self.ids.capacity() == 0 {
            self.ids.reserve(64); // room for a game's ids at its first decision, not grown step by step
        }
        let ids = &mut self.ids;
        PyList::new(
            py,
            legal.iter().map(|a| {
                let (_, text) = ids
                    .entry(Rc::as_ptr(a).cast::<u8>() as usize)
                    .or_insert_with(|| (a.clone(), PyString::new(py, a).unbind()));
                text.bind(py).clone()
            }),
        )
    }

    /// Play `action`. `draws`: the rules' draws until the next decision take these outcomes (explicit chance),
    /// all of them; if the rules draw more, VmChanceNeeded says what the next draw is, and the state is as it was.
    #[pyo3(signature = (action, seat = None, draws = None))]
    fn apply(&mut self, action: &str, seat: Option<u32>, draws: Option<Vec<i64>>) -> PyResult<()> {
        match draws {
            // An illegal action is refused before anything changes (State::apply checks first).
            None => guarded(|| self.own().apply(action, seat))?,
            Some(draws) => {
                let copy = State::clone(&self.st);
                self.st = Rc::new(guarded_drawn(copy, draws, |st| st.apply(action, seat))?);
                self.hidden = None;
            }
        }
        self.stepped();
        Ok(())
    }

    fn apply_index(&mut self, index: usize) -> PyResult<()> {
        guarded(|| self.own().apply_index(index))?;
        self.stepped();
        Ok(())
    }

    /// This decision's copy of the state for reading, if one was made (`State.for_reading`).
    #[getter]
    fn reading(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.reading.as_ref().map(|copy| copy.clone_ref(py))
    }

    /// A new copy for reading replaces the one of an earlier decision too.
    #[setter]
    fn set_reading(&mut self, copy: Option<Py<PyAny>>) {
        self.reading = copy;
        self.read_before = None;
    }

    /// The copy for reading of an earlier decision, whose lists the next one extends.
    #[getter]
    fn read_before(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.read_before.as_ref().map(|copy| copy.clone_ref(py))
    }

    fn to_json(&self) -> String {
        self.st.to_data().to_string()
    }

    /// `to_json`'s data as Python objects, with no JSON text between.
    fn data<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py_value(py, &self.st.to_data())
    }

    /// The state's fields as the Python backend holds them, for a reader that only looks: (rng, zones, loc,
    /// vars, pvars, stack, pending, log, history, seen, reason, know, pinned, faces, log_from, history_from).
    /// Only the log lines from `log_from` and the history entries from `history_from` are handed over (a
    /// reader that kept the earlier ones needs no copy of them each decision); where this state has fewer, all
    /// of them: `log_from` and `history_from` say where they begin. What has not changed since the last look
    /// is the same Python object (`Looked`).
    fn look<'py>(&mut self, py: Python<'py>, log_from: usize, history_from: usize) -> PyResult<Bound<'py, PyTuple>> {
        let st = &*self.st;
        let log_from = if log_from <= st.log.len() { log_from } else { 0 };
        let history_from = if history_from <= st.history.len() {
            history_from
        } else {
            0
        };
        let looked = self.looked.get_or_insert_with(Box::default);
        let zones = looked.zones(py, st)?;
        let log = PyList::empty(py);
        for line in st.log.iter().skip(log_from) {
            let audience = line.audience.into_pyobject(py)?.into_any();
            log.append(PyList::new(
                py,
                [audience, PyString::new(py, &line.text(st)).into_any()],
            )?)?;
        }
        let history = PyList::empty(py);
        let mut make = Maker {
            g: &st.game,
            made: &mut looked.made,
        };
        for h in st.history.iter().skip(history_from) {
            history.append(make.hist(py, h)?)?;
        }
        let (vars, pvars) = looked.vars(py, st)?;
        let [pending, faces] = looked.pending_and_faces(py, st)?;
        let number = |n: u32| Ok(n.into_pyobject(py)?.into_any());
        let fields = [
            st.rng.into_pyobject(py)?.into_any(),
            zones.into_any(),
            looked.loc(py, st)?.into_any(),
            vars.into_any(),
            pvars.into_any(),
            looked.stack(py, st)?.into_any(),
            pending,
            log.into_any(),
            history.into_any(),
            looked.seen(py, st)?.into_any(),
            st.reason.as_deref().into_pyobject(py)?.into_any(),
            kept_list(py, &mut looked.know, &st.know, number)?.into_any(),
            kept_list(py, &mut looked.pinned, &st.pinned, number)?.into_any(),
            faces,
            log_from.into_pyobject(py)?.into_any(),
            history_from.into_pyobject(py)?.into_any(),
        ];
        let made = &mut looked.made;
        made.lists_before = std::mem::take(&mut made.lists);
        PyTuple::new(py, fields)
    }

    /// A copy consistent with all `seat` knows and nothing more (the reference's `State.determinized`).
    fn determinized(&mut self, seat: u32, seed: PySeed) -> PyResult<VmState> {
        if self.hidden.as_ref().is_none_or(|h| h.seat() != seat) {
            self.hidden = Some(guarded(|| self.st.hidden(seat))?);
        }
        let hidden = self.hidden.as_ref().expect("found just above");
        guarded(|| self.st.determinized_from(hidden, seed.0)).map(VmState::new)
    }

    /// Information-set MCTS for `seat` on this state, taken as what `seat` knows (pass a determinized copy
    /// to hide the rest): `iterations` iterations from `seed`, the most visited action.
    fn mcts(&self, seat: u32, iterations: usize, seed: PySeed) -> PyResult<String> {
        let seed = seed.0;
        if iterations == 0 {
            return Err(VmStateError::new_err("MCTS needs at least one iteration"));
        }
        let actions = self.st.legal(Some(seat));
        if actions.is_empty() {
            return Err(VmIllegalAction::new_err(format!("seat {seat} is not to act now")));
        }
        let mut root = State::clone(&self.st);
        guarded(|| {
            Mcts::new(seed, Budget::Iterations(iterations), DEFAULT_ROLLOUT).act(&actions, seat, Some(&mut root))
        })
        .map(|a| a.to_string())
    }

    /// The search of the Python MCTS bot (engine/bots/mcts.py) run whole in the VM on this state (a copy that
    /// knows what `seat` knows): `budget` the parameter of its spec `mcts:BUDGET` (`Budget::parse`: 1000,
    /// 0.2s, 1000/30); `generators` are the states (`random.getstate()[1]`) of the bot's generator and of its
    /// rollout policy's; `explore` the policy's. Returns (the action, the generators' states after, iterations
    /// dropped).
    #[pyo3(signature = (seat, actions, budget, generators, explore = EXPLORE))]
    fn search(
        &self,
        seat: u32,
        actions: Vec<String>,
        budget: &str,
        generators: [Vec<u32>; 2],
        explore: f64,
    ) -> PyResult<(String, [Vec<u32>; 2], u64)> {
        let Some((budget, rollout)) = Budget::parse(budget) else {
            return Err(VmStateError::new_err(format!(
                "a search budget is N iterations or T CPU seconds (Ts), then optionally /ROLLOUT, not '{budget}'"
            )));
        };
        let [own, policy] = generators;
        let (Some(own), Some(policy)) = (PyRandom::from_state(&own), PyRandom::from_state(&policy)) else {
            return Err(VmStateError::new_err(
                "a generator's state is not 624 words and an index",
            ));
        };
        let actions: Vec<Rc<str>> = actions.iter().map(|a| Rc::from(a.as_str())).collect();
        let mut mcts = Mcts::with(own, policy, budget, rollout);
        mcts.policy.explore = explore;
        let mut root = State::clone(&self.st);
        let chosen = guarded(|| mcts.search(&mut root, seat, &actions))?;
        Ok((chosen.to_string(), mcts.generators(), mcts.failed))
    }

    /// The greedy bot's choice for `seat` on this state (a determinized copy), its generator seeded `seed`.
    fn greedy(&self, seat: u32, seed: PySeed) -> PyResult<String> {
        let seed = seed.0;
        let actions = self.st.legal(Some(seat));
        let mut copy = State::clone(&self.st);
        guarded(|| Greedy::new(seed).act(&actions, seat, Some(&mut copy))).map(|a| a.to_string())
    }

    /// What a clone of this state allocates, in bytes (shared values not counted: copies share them).
    fn clone_bytes(&self) -> usize {
        self.st.clone_bytes()
    }

    fn clone(&self) -> VmState {
        VmState {
            st: Rc::clone(&self.st),
            looked: None,
            ids: FxMap::default(),
            hidden: None,
            reading: None,
            read_before: None,
        }
    }

    /// A copy whose log starts empty (`State.clone(log=False)`: a search reads no log); its history is kept.
    fn clone_without_log(&self) -> VmState {
        let mut copy = self.clone();
        copy.own().log = Default::default();
        copy
    }

    fn scores(&mut self) -> PyResult<Vec<i64>> {
        guarded(|| self.own().scores())
    }

    /// (results per seat, reason), or None until the game is over.
    fn outcome(&mut self) -> PyResult<Option<(Vec<&'static str>, String)>> {
        let reason = self.st.reason_text().to_string();
        guarded(|| self.own().outcome()).map(|o| o.map(|r| (r, reason)))
    }

    /// Per-seat returns as a search backs them up (`State.returns`): zero until the game is over.
    fn returns(&mut self) -> PyResult<Vec<f64>> {
        guarded(|| self.own().returns())
    }

    fn to_act(&self) -> Vec<u32> {
        self.st.to_act()
    }

    /// The rule error that stopped the game, as (path, line, col, code, message) (`State.fault`); None while
    /// it runs.
    #[getter]
    fn fault(&self) -> Option<(&str, u32, u32, &str, &str)> {
        let d = self.st.fault.as_ref()?;
        Some((&d.path, d.line, d.col, d.code, &d.message))
    }

    /// The seed of the game, or of the copy this state was dealt as (`State.seed`).
    #[getter]
    fn seed(&self) -> Seed {
        self.st.seed
    }

    #[getter]
    fn current_player(&self) -> Option<u32> {
        self.st.pending.as_ref().map(|p| p.player)
    }

    fn is_terminal(&self) -> bool {
        self.st.pending.is_none()
    }
}

#[pymodule]
fn _vm(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<VmGame>()?;
    m.add_class::<VmState>()?;
    m.add("VmError", py.get_type::<VmError>())?;
    m.add("VmRuleError", py.get_type::<VmRuleError>())?;
    m.add("VmIllegalAction", py.get_type::<VmIllegalAction>())?;
    m.add("VmStateError", py.get_type::<VmStateError>())?;
    m.add("VmStopped", py.get_type::<VmStopped>())?;
    m.add("VmEngineBug", py.get_type::<VmEngineBug>())?;
    m.add("VmChanceNeeded", py.get_type::<VmChanceNeeded>())?;
    m.add("IR_VERSION", crate::game::IR_VERSION)?;
    // The id of the execution profile the module was compiled against (tools/build_backend.py), or None.
    m.add("PROFILE", option_env!("TABLETOP_VM_PROFILE"))?;
    Ok(())
}
