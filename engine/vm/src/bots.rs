//! Bots played inside the VM — random, greedy and information-set MCTS — choice for choice those of
//! engine/bots (the same seeds, Python's generator, the same copies), so a whole game or a whole search
//! needs no Python call per step.

use crate::game::{Game, ACTION_SLOT};
use crate::pyrand::PyRandom;
use crate::rng::Seed;
use crate::state::{Diag, Error, State, F};
use crate::value::V;
use std::rc::Rc;

/// How often greedy plays at random (engine/bots/greedy.py `explore`), unless told otherwise.
pub const EXPLORE: f64 = 0.05;
/// MCTS (engine/bots/mcts.py): decisions a rollout may take, the weight of a lead when it stops, UCB's constant.
pub const DEFAULT_ITERATIONS: usize = 200;
pub const DEFAULT_ROLLOUT: usize = 10;
/// Decisions a rollout runs on while no seat has any points (scored then, it would say nothing, as in a game
/// whose points come only with its end), unless its own cap is higher.
pub const SCORELESS_ROLLOUT: usize = 200;
/// The most a spec may ask for: iterations, CPU seconds and rollout decisions a decision.
pub const MAX_ITERATIONS: usize = 10_000_000;
pub const MAX_SECONDS: f64 = 3600.0;
pub const MAX_ROLLOUT: usize = 1_000_000;
pub const LEAD_WEIGHT: f64 = 0.5;
/// UCB's constant for the returns of two sides (a win +1, a loss -1); see `exploration`.
pub const EXPLORATION: f64 = 0.7;
/// Progressive bias: a new node's greedy value, from 0 (its siblings' worst) to 1 (their best), adds
/// `PRIOR_WEIGHT * prior / (visits + 1)` to its score, so the rules' knowledge steers the first visits and fades.
pub const PRIOR_WEIGHT: f64 = 1.5;

fn choice(rng: &mut PyRandom, actions: &[Rc<str>]) -> Result<Rc<str>, Error> {
    if actions.is_empty() {
        return Err(Error::Illegal("no action to choose from".into()));
    }
    Ok(actions[rng.below(actions.len())].clone())
}

/// A bot of the VM, made from its spec as `engine.bots.make_agent` makes the Python one.
pub enum Bot {
    Random(PyRandom),
    Greedy(Greedy),
    Mcts(Box<Mcts>),
}

impl Bot {
    /// `random`, `greedy`, `mcts` or `mcts:BUDGET[/ROLLOUT]` (`Budget::parse`); None for any other spec.
    /// `made`: the generator of `seed` where the bot draws from one (`Bot::draws`), made by the caller beside
    /// others (`PyRandom::new_many`); else it is made here.
    pub fn parse(spec: &str, seed: Seed, made: Option<PyRandom>) -> Option<Bot> {
        let (kind, param) = match spec.split_once(':') {
            Some((k, p)) => (k, Some(p)),
            None => (spec, None),
        };
        let generator = || made.unwrap_or_else(|| PyRandom::new(seed));
        match (kind, param) {
            ("random", None) => Some(Bot::Random(generator())),
            ("greedy", None) => Some(Bot::Greedy(Greedy::with(generator()))),
            ("mcts", None) => Some(Bot::Mcts(Box::new(Mcts::new(
                seed,
                Budget::Iterations(DEFAULT_ITERATIONS),
                DEFAULT_ROLLOUT,
            )))),
            ("mcts", Some(p)) => {
                let (budget, rollout) = Budget::parse(p)?;
                Some(Bot::Mcts(Box::new(Mcts::new(seed, budget, rollout))))
            }
            _ => None,
        }
    }

    /// Whether a bot of `spec` draws from one generator of its seed, which `parse` may be given made.
    pub fn draws(spec: &str) -> bool {
        matches!(spec, "random" | "greedy")
    }

    /// How often its greedy choices (greedy's own, MCTS's rollouts) are random instead.
    pub fn set_explore(&mut self, explore: f64) {
        match self {
            Bot::Random(_) => {}
            Bot::Greedy(g) => g.explore = explore,
            Bot::Mcts(m) => m.policy.explore = explore,
        }
    }

    /// Whether it decides on a determinized copy (random looks only at its options).
    pub fn needs_state(&self) -> bool {
        !matches!(self, Bot::Random(_))
    }

    pub fn act(&mut self, actions: &[Rc<str>], seat: u32, det: Option<&mut State>) -> Result<Rc<str>, Error> {
        match self {
            Bot::Random(rng) => choice(rng, actions),
            Bot::Greedy(g) => g.act(actions, seat, det),
            Bot::Mcts(m) => m.act(actions, seat, det),
        }
    }
}

/// The best option now (engine/bots/greedy.py): by the rules' `bots: greedy` values, else one decision ahead
/// on the scoring; epsilon-greedy, ties to a seeded pick (declining wins ties).
pub struct Greedy {
    rng: PyRandom,
    pub explore: f64,
}

/// An option's rating: (result if it ends the game, points margin) or (0, the rules' value).
type Rating = (f64, i64);

impl Greedy {
    pub fn new(seed: Seed) -> Greedy {
        Greedy::with(PyRandom::new(seed))
    }

    pub fn with(rng: PyRandom) -> Greedy {
        Greedy { rng, explore: EXPLORE }
    }

    pub fn act(&mut self, actions: &[Rc<str>], seat: u32, st: Option<&mut State>) -> Result<Rc<str>, Error> {
        let Some(st) = st.filter(|s| s.pending.is_some()) else {
            return choice(&mut self.rng, actions);
        };
        match self.explored(&st.game, actions)? {
            Some(a) => Ok(a),
            None => self.best(actions, seat, st),
        }
    }

    /// The random option it plays instead of the best (as often as `explore` says), or None: the draw comes
    /// before the options are rated, so a caller need make no copy for a random pick.
    pub fn explored(&mut self, game: &Game, actions: &[Rc<str>]) -> Result<Option<Rc<str>>, Error> {
        if game.greedy.is_empty() && game.scoring.is_empty() {
            return Err(Error::State(format!(
                "bot 'greedy' cannot play {}: its rules have neither a `bots: greedy` value nor `scoring` to look \
                 ahead on",
                game.id
            )));
        }
        if self.rng.random() < self.explore {
            return choice(&mut self.rng, actions).map(Some);
        }
        Ok(None)
    }

    /// The best of `actions` for `seat` on `st`, a state at a decision (ties to a seeded pick).
    pub fn best(&mut self, actions: &[Rc<str>], seat: u32, st: &mut State) -> Result<Rc<str>, Error> {
        let scored = if st.game.greedy.is_empty() {
            by_lookahead(st, seat, actions)?
        } else {
            by_values(st, seat, actions)?
        };
        self.pick(actions, &scored)
    }

    /// `best` on `seat`'s determinized copies of `st`, rated on `st` itself where the rules' values read nothing
    /// a deal changes (`State::rated_in_sight`): then every copy rates the options alike. None: rate on a copy
    /// (so also where the rules give no values: a look-ahead plays the options on copies of its own).
    pub fn best_in_sight(&mut self, actions: &[Rc<str>], seat: u32, st: &mut State) -> Option<Result<Rc<str>, Error>> {
        if st.game.greedy.is_empty() {
            return None;
        }
        let scored = st.rated_in_sight(seat, |s| by_values(s, seat, actions))?;
        Some(self.pick(actions, &scored))
    }

    /// The best rated of `actions`: an option that declines among the best, else a seeded pick of them (a
    /// random option where none is rated).
    fn pick(&mut self, actions: &[Rc<str>], scored: &[(Rating, Rc<str>, bool)]) -> Result<Rc<str>, Error> {
        let Some(best) = scored
            .iter()
            .map(|(v, _, _)| *v)
            .reduce(|a, b| if b > a { b } else { a })
        else {
            return choice(&mut self.rng, actions);
        };
        let top: Vec<&(Rating, Rc<str>, bool)> = scored.iter().filter(|(v, _, _)| *v == best).collect();
        if let Some((_, a, _)) = top.iter().find(|(_, _, declines)| *declines) {
            return Ok(a.clone());
        }
        let i = self.rng.below(top.len());
        Ok(top[i].1.clone())
    }
}

/// Each action's greedy value on `st`. The repeated expressions one option's value works out are kept for the
/// next option's (`state::Memo`): the state stands still while its options are rated.
fn by_values(st: &mut State, seat: u32, actions: &[Rc<str>]) -> Result<Vec<(Rating, Rc<str>, bool)>, Error> {
    st.memo.on = true;
    let rated = rate_each(st, seat, actions);
    st.memo.end();
    rated
}

fn rate_each(st: &mut State, seat: u32, actions: &[Rc<str>]) -> Result<Vec<(Rating, Rc<str>, bool)>, Error> {
    let Some(p) = st.asked(seat) else {
        return Ok(vec![]);
    };
    let game = st.game.clone();
    let value = game
        .greedy
        .iter()
        .find(|g| g.kind == p.kind)
        .or_else(|| game.greedy.iter().find(|g| g.kind.is_empty()));
    let Some(value) = value else {
        return Err(Error::State(format!(
            "bot 'greedy' has no value for a decision '{}'",
            p.kind
        )));
    };
    let mut out = Vec::with_capacity(actions.len());
    let mut env = Vec::with_capacity(value.nlocals);
    // The actions are most often the decision's own list: then an action's option is the one at its place.
    let own = actions.len() == p.ids.len() && actions.iter().zip(p.ids.iter()).all(|(a, b)| Rc::ptr_eq(a, b));
    for (k, a) in actions.iter().enumerate() {
        let i = if own {
            Some(k)
        } else {
            p.ids.iter().position(|x| x == a)
        };
        let Some(i) = i else {
            continue;
        };
        let choice = p.values[i].clone();
        let declines = matches!(choice, V::None);
        env.clear();
        env.resize(value.nlocals, V::Unset);
        env[0] = V::Int(i64::from(seat));
        env[1] = V::Int(i64::from(seat));
        if value.reads_action {
            env[usize::from(ACTION_SLOT)] = game.text_value(a);
        }
        env[3] = choice;
        let fail = |m: String| {
            Error::Rule(Diag {
                path: game.rules.clone(),
                line: 1,
                col: 1,
                code: "E701",
                message: format!("the greedy value of '{}' failed for seat {seat}: {m}", value.kind),
            })
        };
        let v = match st.eval(&game, value.expr, &mut env) {
            Ok(V::Int(v)) => v,
            Ok(V::Bool(b)) => i64::from(b),
            Ok(other) => return Err(fail(format!("{} is no number", other.kind()))),
            Err(F::Rule(m) | F::Failed(m)) => return Err(fail(m)),
            Err(F::Overrun) => return Err(fail("calls ran out of steps".into())),
            Err(F::Bug(m)) => return Err(Error::Bug(format!("engine bug in the VM's greedy value: {m}"))),
            Err(F::Scoring(d)) => return Err(Error::Rule(*d)),
        };
        out.push(((0.0, v), a.clone(), declines));
    }
    Ok(out)
}

fn by_lookahead(st: &State, seat: u32, actions: &[Rc<str>]) -> Result<Vec<(Rating, Rc<str>, bool)>, Error> {
    let teams = st.seats().teams.clone();
    let team = teams[seat as usize].clone();
    let offered = st.legal(Some(seat));
    let mut out = vec![];
    for a in actions {
        if !offered.contains(a) {
            continue; // the copy need not offer what hangs on unseen cards
        }
        let mut after = st.clone();
        after.keep_log = false;
        after.apply(a, Some(seat))?;
        let scores = after.scores()?;
        // the fewest points win (`winner: lowest`): a lead is fewer points
        let sign = st.game.signs.first().copied().unwrap_or(1);
        let side = |t: &[u32]| sign * t.iter().map(|&m| scores[m as usize]).sum::<i64>();
        let best_other = teams
            .iter()
            .filter(|t| !t.contains(&seat))
            .map(|t| side(t))
            .max()
            .unwrap_or(0);
        let result = if after.pending.is_none() {
            after.returns()?[seat as usize]
        } else {
            0.0
        };
        out.push(((result, side(&team) - best_other), a.clone(), false));
    }
    Ok(out)
}

/// How long a search goes on: a number of iterations (the same choice for the same seed), or seconds of
/// the searching thread's CPU time (as many iterations as fit, at least one; other load on the machine
/// does not shorten it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    Iterations(usize),
    Seconds(f64),
}

impl Budget {
    /// The parameter of `mcts:PARAM`: `N` iterations or `Ts` CPU seconds, then optionally `/R`, decisions a
    /// rollout may take (default `DEFAULT_ROLLOUT`): `1000`, `0.2s`, `1000/30`. None if it is none of these.
    pub fn parse(param: &str) -> Option<(Budget, usize)> {
        let (budget, rollout) = match param.split_once('/') {
            Some((b, r)) => (b, r.trim().parse::<usize>().ok().filter(|r| *r <= MAX_ROLLOUT)?),
            None => (param, DEFAULT_ROLLOUT),
        };
        let budget = budget.trim();
        let budget = match budget.strip_suffix('s') {
            Some(t) => Budget::Seconds(t.parse::<f64>().ok().filter(|t| *t > 0.0 && *t <= MAX_SECONDS)?),
            None => Budget::Iterations(
                budget
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (1..=MAX_ITERATIONS).contains(n))?,
            ),
        };
        Some((budget, rollout))
    }
}

/// CPU seconds the calling thread has run.
#[cfg(unix)]
pub fn thread_seconds() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime only writes one timespec through the pointer, which is to a live, aligned local
    // of that very type; an unknown clock makes it return an error (checked), never write elsewhere.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    if ok {
        t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
    } else {
        0.0
    }
}

/// Seconds since the first call (a system without a thread CPU clock in `libc`: the wall clock instead).
#[cfg(not(unix))]
pub fn thread_seconds() -> f64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed().as_secs_f64()
}

/// What one search did, for seeing where its time goes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    pub iterations: u64,
    /// Decisions taken down the tree and in rollouts.
    pub tree: u64,
    pub rollout: u64,
    /// Rollouts that reached the end of the game (the others were scored by the points).
    pub finished: u64,
}

/// Statistics of one action in the tree, from the view of the seat that took it.
struct Node {
    children: Vec<(Rc<str>, usize)>,
    visits: u32,
    total: f64,
    avail: u32,
    mover: u32,
    /// Where its option's greedy value lay among its siblings' when it was added (see `PRIOR_WEIGHT`).
    prior: f64,
}

impl Node {
    fn new(mover: u32, prior: f64) -> Node {
        Node {
            children: vec![],
            visits: 0,
            total: 0.0,
            avail: 1,
            mover,
            prior,
        }
    }

    /// The child reached by `action` (an id of the same option is most often the very same text: its address
    /// is compared first).
    fn child(&self, action: &Rc<str>) -> Option<usize> {
        self.children
            .iter()
            .find(|(a, _)| Rc::ptr_eq(a, action) || a == action)
            .map(|(_, c)| *c)
    }
}

/// UCB's constant for `seat`'s game: the returns of n seats in sides of k spread over n / k (a lone winner of
/// three gets +2, the others -1), so it grows with that spread from `EXPLORATION` at two sides, to explore
/// as much for what a win is worth.
fn exploration(st: &State, seat: u32) -> f64 {
    let side = st.seats().teams[seat as usize].len();
    EXPLORATION * (st.n as f64 / side as f64) / 2.0
}

/// UCB1 with availability counts (`c` the constant), plus the progressive bias of the node's prior.
fn ucb(n: &Node, c: f64) -> f64 {
    let visits = f64::from(n.visits);
    n.total / visits + c * (f64::from(n.avail).ln() / visits).sqrt() + PRIOR_WEIGHT * n.prior / (visits + 1.0)
}

/// Where the rules' greedy value of `action` lies among those of `legal` for `mover`: 0 the worst, 1 the best
/// (all alike: 0).
fn prior(det: &mut State, legal: &[Rc<str>], mover: u32, action: &Rc<str>) -> Result<f64, Error> {
    let rated = by_values(det, mover, legal)?;
    let values = rated.iter().map(|((_, v), _, _)| *v);
    let (low, high) = (values.clone().min().unwrap_or(0), values.max().unwrap_or(0));
    Ok(match rated.iter().find(|(_, a, _)| a == action) {
        Some(((_, v), _, _)) if high > low => (v - low) as f64 / (high - low) as f64,
        _ => 0.0,
    })
}

/// Information-set MCTS (engine/bots/mcts.py): per iteration a fresh determinized copy, UCB1 with
/// availability counts (its constant by `exploration`, biased by the greedy values: `PRIOR_WEIGHT`), one node
/// added, a rollout (by the greedy values when the rules give them) of `rollout` decisions and on while no seat
/// has points (unless the rules give a standing), scored by the standing or the points if the game is not over,
/// backed up.
pub struct Mcts {
    rng: PyRandom,
    budget: Budget,
    rollout: usize,
    pub policy: Greedy,
    /// Iterations whose copy broke a rule: dropped with the node they added.
    pub failed: u64,
    pub tally: Tally,
}

impl Mcts {
    pub fn new(seed: Seed, budget: Budget, rollout: usize) -> Mcts {
        // its own and its policy's generators start alike: one set up, then copied
        let rng = PyRandom::new(seed);
        Mcts::with(rng.clone(), rng, budget, rollout)
    }

    /// A search drawing from the given generators: its own, and its rollout policy's.
    pub fn with(rng: PyRandom, policy: PyRandom, budget: Budget, rollout: usize) -> Mcts {
        Mcts {
            rng,
            budget,
            rollout,
            policy: Greedy::with(policy),
            failed: 0,
            tally: Tally::default(),
        }
    }

    /// The generators' states after the search (its own, its policy's), for the caller to carry on from.
    pub fn generators(&self) -> [Vec<u32>; 2] {
        [self.rng.state(), self.policy.rng.state()]
    }

    pub fn act(&mut self, actions: &[Rc<str>], seat: u32, st: Option<&mut State>) -> Result<Rc<str>, Error> {
        if actions.len() == 1 {
            return Ok(actions[0].clone());
        }
        match st {
            None => choice(&mut self.rng, actions),
            Some(st) => self.search(st, seat, actions),
        }
    }

    /// The most visited of `actions` (none: the copy's options) at `st`, a copy that knows what `seat` knows.
    pub fn search(&mut self, st: &mut State, seat: u32, actions: &[Rc<str>]) -> Result<Rc<str>, Error> {
        st.keep_log = false; // the copies read neither log nor history
        let guided = !st.game.greedy.is_empty();
        let mut nodes = vec![Node::new(u32::MAX, 0.0)];
        let deadline = match self.budget {
            Budget::Seconds(s) => thread_seconds() + s,
            Budget::Iterations(_) => 0.0,
        };
        let hidden = st.hidden(seat)?;
        let mut spare = None;
        let mut done = 0;
        while match self.budget {
            Budget::Iterations(n) => done < n,
            Budget::Seconds(_) => done == 0 || thread_seconds() < deadline,
        } {
            let det = st.determinized_in(&hidden, Seed::from(self.rng.getrandbits(31)), &mut spare)?;
            self.iterate(&mut nodes, det, seat, guided)?;
            done += 1;
        }
        self.tally.iterations += done as u64;
        let legal = if actions.is_empty() {
            st.legal(Some(seat))
        } else {
            actions.to_vec()
        };
        let key = |a: &Rc<str>| match nodes[0].child(a) {
            Some(c) => (i64::from(nodes[c].visits), nodes[c].total),
            None => (-1, 0.0),
        };
        if !legal.iter().any(|a| key(a).0 > 0) {
            return if guided {
                self.policy.act(&legal, seat, Some(st))
            } else {
                choice(&mut self.rng, &legal)
            };
        }
        let mut best = 0;
        for (i, a) in legal.iter().enumerate() {
            if key(a) > key(&legal[best]) {
                best = i;
            }
        }
        Ok(legal[best].clone())
    }

    fn iterate(&mut self, nodes: &mut Vec<Node>, det: &mut State, seat: u32, guided: bool) -> Result<(), Error> {
        let (mut path, mut added) = (vec![], None);
        match self.descend(nodes, det, seat, guided, &mut path, &mut added) {
            Ok(()) => {}
            Err(Error::Rule(_)) => {
                self.failed += 1;
                if let Some((parent, child)) = added {
                    nodes[parent].children.retain(|(_, c)| *c != child);
                }
                return Ok(());
            }
            Err(e) => return Err(e),
        }
        self.tally.tree += path.len() as u64;
        let returns = if det.pending.is_none() {
            det.returns()?
        } else {
            by_lead(det)?
        };
        for n in path {
            let node = &mut nodes[n];
            node.visits += 1;
            node.total += returns[node.mover as usize];
        }
        Ok(())
    }

    /// Select by UCB down the tree, add one node, roll out.
    fn descend(
        &mut self,
        nodes: &mut Vec<Node>,
        det: &mut State,
        seat: u32,
        guided: bool,
        path: &mut Vec<usize>,
        added: &mut Option<(usize, usize)>,
    ) -> Result<(), Error> {
        let (mut node, mut mover) = (0usize, seat);
        let explore = exploration(det, seat);
        while det.pending.is_some() {
            let legal = det.legal(Some(mover));
            let mut untried = vec![];
            for a in &legal {
                match nodes[node].child(a) {
                    Some(c) => nodes[c].avail += 1,
                    None => untried.push(a.clone()),
                }
            }
            if !untried.is_empty() {
                let action = if guided {
                    self.policy.act(&untried, mover, Some(det))?
                } else {
                    choice(&mut self.rng, &untried)?
                };
                let bias = if guided {
                    prior(det, &legal, mover, &action)?
                } else {
                    0.0
                };
                let child = nodes.len();
                nodes.push(Node::new(mover, bias));
                nodes[node].children.push((action.clone(), child));
                *added = Some((node, child));
                det.apply(&action, Some(mover))?;
                path.push(child);
                break;
            }
            let Some(first) = legal.first() else { break };
            let mut best = nodes[node].child(first).expect("every option was tried");
            for a in &legal[1..] {
                let c = nodes[node].child(a).expect("every option was tried");
                if ucb(&nodes[c], explore) > ucb(&nodes[best], explore) {
                    best = c;
                }
            }
            let action = nodes[node]
                .children
                .iter()
                .find(|(_, c)| *c == best)
                .map(|(a, _)| a.clone())
                .expect("a child has its action");
            node = best;
            det.apply(&action, Some(mover))?;
            path.push(node);
            if let Some(p) = &det.pending {
                mover = p.player;
            }
        }
        let (mut steps, standing) = (0, det.game.standing.is_some());
        while let Some(p) = det.pending.clone() {
            if steps >= self.rollout
                && (standing || steps >= SCORELESS_ROLLOUT || det.scores()?.iter().any(|&s| s != 0))
            {
                break;
            }
            let action = if guided {
                self.policy.act(&p.ids, p.player, Some(det))?
            } else {
                choice(&mut self.rng, &p.ids)?
            };
            det.apply_chosen(&action)?;
            steps += 1;
        }
        self.tally.rollout += steps as u64;
        self.tally.finished += u64::from(det.pending.is_none());
        Ok(())
    }
}

/// Returns for a copy still running when its rollout stops: the side(s) standing best (`bots: mcts`), else
/// ahead on points, win at `LEAD_WEIGHT`, the others lose; all level is 0. Where the fewest points win, the
/// fewest lead; the highest standing always does.
fn by_lead(det: &mut State) -> Result<Vec<f64>, Error> {
    let n = det.n;
    let game = det.game.clone();
    let (sign, values) = match &game.standing {
        Some(standing) => (
            1,
            (0..n)
                .map(|p| det.evaluate(standing, p))
                .collect::<Result<Vec<_>, _>>()?,
        ),
        None => (game.signs.first().copied().unwrap_or(1), det.scores()?),
    };
    let teams = &det.seats().teams;
    let side: Vec<i64> = (0..n)
        .map(|p| sign * teams[p].iter().map(|&m| values[m as usize]).sum::<i64>())
        .collect();
    let top = side.iter().copied().max().unwrap_or(0);
    let leaders = side.iter().filter(|&&s| s == top).count();
    if leaders == n {
        return Ok(vec![0.0; n]);
    }
    let win = n as f64 / leaders as f64 - 1.0;
    Ok(side
        .iter()
        .map(|&s| LEAD_WEIGHT * if s == top { win } else { -1.0 })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_is_iterations_or_cpu_seconds_then_a_rollout_cap() {
        let read = |p: &str| Budget::parse(p);
        assert_eq!(read("1000"), Some((Budget::Iterations(1000), DEFAULT_ROLLOUT)));
        assert_eq!(read("0.2s"), Some((Budget::Seconds(0.2), DEFAULT_ROLLOUT)));
        assert_eq!(read("1000/30"), Some((Budget::Iterations(1000), 30)));
        assert_eq!(read("0.5s/0"), Some((Budget::Seconds(0.5), 0)));
        for bad in ["", "0", "0s", "-1", "lots", "1000/", "1000/-1", "0.2s/long", "3601s"] {
            assert_eq!(read(bad), None, "{bad}");
        }
    }
}
