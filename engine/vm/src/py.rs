//! The Python face (`engine._vm`): one call does a whole unit of work; errors cross as exceptions.

use crate::bots::{Budget, Greedy, Mcts, DEFAULT_ROLLOUT, EXPLORE};
use crate::game::Game;
use crate::playout;
use crate::pyrand::PyRandom;
use crate::record::{self, Lab, Record, Stat};
use crate::rng::Seed;
use crate::state::{Error, Pending, State};
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
    VmEngineBug,
    VmError,
    "The VM itself is wrong, named by its instruction."
);

fn py_err(e: Error) -> PyErr {
    match e {
        Error::Rule(d) => VmRuleError::new_err((d.path, d.line, d.col, d.code, d.message)),
        Error::Illegal(m) => VmIllegalAction::new_err(m),
        Error::Stopped(m) | Error::State(m) => VmStateError::new_err(m),
        Error::Bug(m) => VmEngineBug::new_err(m),
    }
}

/// Run `f`, turning a panic into an engine-bug error: a fault in the VM never ends the process.
fn guarded<T>(f: impl FnOnce() -> Result<T, Error>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r.map_err(py_err),
        Err(p) => Err(VmEngineBug::new_err(panic_text(&*p))),
    }
}

/// Run `f` as `guarded` does, with any failure as the one line the Python driver would print.
fn guarded_raw<T>(f: impl FnOnce() -> Result<T, Error>) -> Result<T, String> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r.map_err(|e| playout::message(&e)),
        Err(p) => Err(panic_text(&*p)),
    }
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
// `Rc`s shared with one another.
//
// SAFETY: the `Rc`s (and everything else these objects own) are only touched by Rust code of this module run
// from a Python call, which holds the GIL from the call's start to its end: no method releases it
// (`allow_threads` is used nowhere), and the GIL is given up only inside Python code this module calls (the
// `done` callback of `records`, or a collection a new Python object may set off), never within a change of
// an `Rc` count or of a value: another thread may run there, but in turn, never at once. The module is built
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

    fn new_game(&self, players: usize, seed: Seed) -> PyResult<VmState> {
        guarded(|| State::new(self.game.clone(), players, seed)).map(VmState::new)
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
        for seed in seeds {
            let d = PyDict::new(py);
            d.set_item("seed", seed)?;
            match guarded_raw(|| playout::play_game(&self.game, &kinds, seed, limit, explore)) {
                Ok(g) => {
                    d.set_item("scores", g.scores)?;
                    d.set_item("results", g.results)?;
                    d.set_item("reason", &*g.reason)?;
                    d.set_item("decisions", g.decisions)?;
                    d.set_item("cut_off", g.cut_off)?;
                    d.set_item("error", py.None())?;
                }
                Err(e) => {
                    d.set_item("decisions", 0)?;
                    d.set_item("cut_off", false)?;
                    d.set_item("error", e)?;
                }
            }
            out.push(d);
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

/// A value of the rules as the Python objects `json.loads` makes of its saved form (`json::value_json`), made
/// with no JSON between.
fn py_of<'py>(py: Python<'py>, g: &Game, v: &V) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        V::Unset | V::None => py.None().into_bound(py),
        V::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        V::Int(i) => i.into_pyobject(py)?.into_any(),
        V::Str(s) => PyString::new(py, g.text(*s)).into_any(),
        V::Text(t) => PyString::new(py, t).into_any(),
        V::List(items) => py_list_of(py, g, items)?.into_any(),
        V::Rec(fields) => {
            let dict = PyDict::new(py);
            for (k, x) in fields.iter() {
                match crate::maps::entry(*k, x) {
                    (V::Text(t), x) => dict.set_item(&*t, py_of(py, g, x)?)?,
                    (_, x) => dict.set_item(g.text(*k), py_of(py, g, x)?)?,
                }
            }
            dict.into_any()
        }
        V::Iter(i, items) => PyList::new(
            py,
            [i.into_pyobject(py)?.into_any(), py_list_of(py, g, items)?.into_any()],
        )?
        .into_any(),
    })
}

fn py_list_of<'py>(py: Python<'py>, g: &Game, items: &[V]) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for x in items {
        list.append(py_of(py, g, x)?)?;
    }
    Ok(list)
}

/// Named values (variables, a frame's locals) as a dict, in their order.
fn py_named<'py, 'a>(
    py: Python<'py>,
    g: &Game,
    named: impl Iterator<Item = (&'a str, &'a V)>,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (name, v) in named {
        dict.set_item(name, py_of(py, g, v)?)?;
    }
    Ok(dict)
}

/// The decision asked as the Python backend holds it (`json::pending_json`'s fields, in its order).
fn py_pending<'py>(py: Python<'py>, g: &Game, p: &Pending) -> PyResult<Bound<'py, PyDict>> {
    let ids = |ids: &[Rc<str>]| PyList::new(py, ids.iter().map(|i| &**i));
    let d = PyDict::new(py);
    d.set_item(intern!(py, "player"), p.player)?;
    d.set_item(intern!(py, "ids"), ids(&p.ids)?)?;
    d.set_item(intern!(py, "values"), py_list_of(py, g, &p.values)?)?;
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
            each_values.append(py_list_of(py, g, v)?)?;
        }
        all.set_item("values", each_values)?;
        all.set_item("chosen", &t.chosen)?;
        d.set_item("together", all)?;
    }
    Ok(d)
}

/// The program frames `[procedure, pc, locals]` as the Python backend holds them (`State::stack_json`).
fn py_stack<'py>(py: Python<'py>, st: &State) -> PyResult<Bound<'py, PyList>> {
    let g = &*st.game;
    let out = PyList::empty(py);
    for f in &st.stack {
        let p = &g.procs[f.proc as usize];
        let set = p
            .locals
            .iter()
            .map(|n| &**n)
            .zip(&f.env)
            .filter(|(_, v)| !matches!(v, V::Unset));
        let env = py_named(py, g, set)?;
        let frame = [
            PyString::new(py, &p.name).into_any(),
            f.pc.into_pyobject(py)?.into_any(),
            env.into_any(),
        ];
        out.append(PyList::new(py, frame)?)?;
    }
    Ok(out)
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
    looked: Looked,
}

/// A list a look handed over, with what it was made of.
type Kept<T> = Option<(T, Py<PyList>)>;

/// What the last `look` of a state handed over that is often the same at the next one, with what it was made
/// from: a zone is handed over again as the same Python list while the state still shares the zone's cards with
/// this (the VM copies a zone it changes while it is shared, so a zone held here never changes); the cards'
/// places and what seats know of them while they are equal; each seat's `seen`, which only grows, extended.
/// A reader takes the lists as read-only, as the Python backend's values are.
#[derive(Default)]
struct Looked {
    names: Vec<Py<PyString>>,
    zones: Vec<Kept<Rc<Vec<u32>>>>,
    loc: Kept<Vec<u32>>,
    know: Kept<Vec<u32>>,
    pinned: Kept<Vec<u32>>,
    seen: Vec<(usize, Py<PyList>)>,
}

/// `items` as a Python list: the one `kept` holds if it was made of equal items, else a new one, kept.
fn kept_list<'py>(py: Python<'py>, kept: &mut Kept<Vec<u32>>, items: &[u32]) -> PyResult<Py<PyList>> {
    if let Some((was, list)) = kept {
        if was[..] == *items {
            return Ok(list.clone_ref(py));
        }
    }
    let list = PyList::new(py, items)?.unbind();
    *kept = Some((items.to_vec(), list.clone_ref(py)));
    Ok(list)
}

impl Looked {
    /// The zones by name, in the game's order, as a dict of lists of cards (bottom first).
    fn zones<'py>(&mut self, py: Python<'py>, st: &State) -> PyResult<Bound<'py, PyDict>> {
        let g = &st.game;
        if self.names.len() != st.zones.len() {
            self.names = st
                .seats()
                .zones
                .iter()
                .map(|&z| PyString::new(py, g.text(z)).unbind())
                .collect();
            self.zones = st.zones.iter().map(|_| None).collect();
        }
        let out = PyDict::new(py);
        for ((name, kept), cards) in self.names.iter().zip(&mut self.zones).zip(&st.zones) {
            let list = match kept {
                Some((was, list)) if Rc::ptr_eq(was, cards) => list.clone_ref(py),
                _ => {
                    let list = PyList::new(py, cards.iter())?.unbind();
                    *kept = Some((Rc::clone(cards), list.clone_ref(py)));
                    list
                }
            };
            out.set_item(name.bind(py), list)?;
        }
        Ok(out)
    }

    /// Each card's zone by name (the zones' names are those `zones` made).
    fn loc<'py>(&mut self, py: Python<'py>, st: &State) -> PyResult<Py<PyList>> {
        if let Some((was, list)) = &self.loc {
            if *was == st.loc {
                return Ok(list.clone_ref(py));
            }
        }
        let names = &self.names;
        let list = PyList::new(py, st.loc.iter().map(|&z| names[z as usize].bind(py)))?.unbind();
        self.loc = Some((st.loc.clone(), list.clone_ref(py)));
        Ok(list)
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
                for entry in &now[*had..] {
                    grown.append(py_value(py, entry)?)?;
                }
                (*had, *list) = (now.len(), grown.unbind());
            }
            out.append(list.bind(py))?;
        }
        Ok(out)
    }
}

impl VmState {
    fn new(st: State) -> VmState {
        VmState {
            st: Rc::new(st),
            looked: Looked::default(),
        }
    }

    /// The state to change: this object's own (copied first if a clone still shares it).
    fn own(&mut self) -> &mut State {
        Rc::make_mut(&mut self.st)
    }
}

#[pymethods]
impl VmState {
    #[pyo3(signature = (seat = None))]
    fn legal_actions(&self, seat: Option<u32>) -> Vec<String> {
        self.st.legal(seat).iter().map(|a| a.to_string()).collect()
    }

    #[pyo3(signature = (action, seat = None))]
    fn apply(&mut self, action: &str, seat: Option<u32>) -> PyResult<()> {
        // An illegal action is refused before anything changes (State::apply checks first).
        guarded(|| self.own().apply(action, seat))
    }

    fn apply_index(&mut self, index: usize) -> PyResult<()> {
        guarded(|| self.own().apply_index(index))
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
        let looked = &mut self.looked;
        let zones = looked.zones(py, st)?;
        let log = PyList::empty(py);
        for line in st.log.iter().skip(log_from) {
            let audience = line.audience.into_pyobject(py)?.into_any();
            log.append(PyList::new(py, [audience, PyString::new(py, &line.text).into_any()])?)?;
        }
        let history = PyList::empty(py);
        for h in st.history.iter().skip(history_from) {
            history.append(py_value(py, &st.hist_json(h))?)?;
        }
        let g = &*st.game;
        let faces = if g.dice.is_empty() {
            py.None().into_bound(py)
        } else {
            py_list_of(py, g, &st.faces)?.into_any()
        };
        let pvars = PyList::empty(py);
        for values in &st.pvars {
            pvars.append(py_named(py, g, g.pvars.iter().map(|v| &*v.name).zip(values))?)?;
        }
        let fields = [
            st.rng.into_pyobject(py)?.into_any(),
            zones.into_any(),
            looked.loc(py, st)?.into_bound(py).into_any(),
            py_named(py, g, g.vars.iter().map(|v| &*v.name).zip(&st.vars))?.into_any(),
            pvars.into_any(),
            py_stack(py, st)?.into_any(),
            match &st.pending {
                Some(p) => py_pending(py, g, p)?.into_any(),
                None => py.None().into_bound(py),
            },
            log.into_any(),
            history.into_any(),
            looked.seen(py, st)?.into_any(),
            st.reason.as_deref().into_pyobject(py)?.into_any(),
            kept_list(py, &mut looked.know, &st.know)?.into_bound(py).into_any(),
            kept_list(py, &mut looked.pinned, &st.pinned)?.into_bound(py).into_any(),
            faces,
            log_from.into_pyobject(py)?.into_any(),
            history_from.into_pyobject(py)?.into_any(),
        ];
        PyTuple::new(py, fields)
    }

    /// A copy consistent with all `seat` knows and nothing more (the reference's `State.determinized`).
    fn determinized(&self, seat: u32, seed: Seed) -> PyResult<VmState> {
        guarded(|| self.st.determinized(seat, seed)).map(VmState::new)
    }

    /// Information-set MCTS for `seat` on this state, taken as what `seat` knows (pass a determinized copy
    /// to hide the rest): `iterations` iterations from `seed`, the most visited action.
    fn mcts(&self, seat: u32, iterations: usize, seed: Seed) -> PyResult<String> {
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
    fn greedy(&self, seat: u32, seed: Seed) -> PyResult<String> {
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
            looked: Looked::default(),
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
    m.add("VmEngineBug", py.get_type::<VmEngineBug>())?;
    m.add("IR_VERSION", crate::game::IR_VERSION)?;
    Ok(())
}
