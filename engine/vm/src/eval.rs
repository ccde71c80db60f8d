//! Expressions and operations, with the reference's meaning (dsl/reference.py, dsl/ops.py).

use crate::game::{Bin, Body, Expr, Family, Game, Keyed, Node, Op, Walk};
use crate::shared::{Shared, SharedStr};
use crate::state::{failed, py_repr, rule, Error, Hist, Res, State, F, MAX_SIZE};
use crate::table::NO_PART;
use crate::value::V;
use std::cmp::Ordering;

pub(crate) fn int(v: &V, what: &str) -> Res<i64> {
    match v {
        V::Int(i) => Ok(*i),
        V::Bool(b) => Ok(i64::from(*b)),
        other => failed(format!("{what} needs a number, not {}", other.kind())),
    }
}

/// A value's type in the reference's words for a Python type error (errors.py's `_KIND_WORDS`).
pub fn py_kind(v: &V) -> &'static str {
    match v {
        V::Bool(_) => "true/false",
        other => other.kind(),
    }
}

/// Two numbers for `op`, or the reference's fault for operands it cannot combine (`'+' cannot combine none
/// and a number`).
pub fn ints(op: &str, x: &V, y: &V) -> Res<(i64, i64)> {
    match (x, y) {
        (V::Int(_) | V::Bool(_), V::Int(_) | V::Bool(_)) => Ok((int(x, op)?, int(y, op)?)),
        _ => failed(format!("'{op}' cannot combine {} and {}", py_kind(x), py_kind(y))),
    }
}

/// A list an operation goes through; another value fails as the reference's iteration over it does
/// (`none is not a list`).
fn list<'a>(v: &'a V, _what: &str) -> Res<&'a Shared<V>> {
    match v {
        V::List(l) => Ok(l),
        other => failed(format!("{} is not a list", py_kind(other))),
    }
}

fn bounded(items: Vec<V>) -> Res<V> {
    if items.len() > MAX_SIZE {
        return rule(format!(
            "a list of {} items is over the size budget of 100,000: does a loop make it grow without end?",
            grouped(items.len())
        ));
    }
    Ok(V::list(items))
}

/// The rules' numbers are 64-bit on every backend (engine/runtime/numbers.py): a sum, difference or product
/// past ±(2⁶³ − 1) is a rule fault.
pub const PAST: &str = "a number past ±9,223,372,036,854,775,807 (numbers in the rules are 64-bit)";

/// The key part of a board operation's argument that is no text of the table: no table holds it.
pub(crate) const NO_TEXT: u32 = u32::MAX - 1;

/// The arguments of a board operation that are no text of the table, kept for the message of a miss.
pub(crate) type Odd = [Option<V>; 3];

/// A count as the reference's messages print it, its thousands set apart by commas (Python's `{:,}`).
pub(crate) fn grouped(n: impl std::fmt::Display) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// A board operation's fault where its board is none, in the reference's words (`GameDef.board`).
const NO_BOARD: &str = "a board operation got no board";
/// The most locals a function may have to keep them on the native stack while it runs.
const SMALL_FRAME: usize = 4;

/// An operation given fewer arguments than it takes: the lowering's fault, not the rules'.
fn lacking() -> F {
    F::Bug("an operation lacks an argument".into())
}

/// Python's `-v`: a number (a bool is one), else Python's fault.
fn negated(v: &V) -> Res<i64> {
    if !matches!(v, V::Int(_) | V::Bool(_)) {
        return failed(format!("'-' cannot be used on {}", py_kind(v)));
    }
    within(int(v, "-")?.checked_neg())
}

/// `r` if it is a number the rules may hold (within ±(2^63 − 1)), else the bound's fault.
fn within(r: Option<i64>) -> Res<i64> {
    match r {
        Some(v) if v != i64::MIN => Ok(v),
        _ => rule(PAST),
    }
}

fn checked(r: Option<i64>) -> Res<V> {
    within(r).map(V::Int)
}

/// Where a comprehension puts its elements: a list, or an operation reading them as they come (`Fold`).
trait Sink {
    /// How many items the comprehension goes through (at most that many elements follow).
    fn start(&mut self, _items: usize) {}
    fn take(&mut self, st: &State, v: V);
}

impl Sink for Vec<V> {
    fn start(&mut self, items: usize) {
        self.reserve(items);
    }

    fn take(&mut self, _st: &State, v: V) {
        self.push(v);
    }
}

/// `size`, `is_empty`, `any`, `all`, `sum`, `max` or `min` of a comprehension, taking its elements as they are
/// made. Every element is still made (making one can fail or change the state), and a fault of the operation
/// itself waits until all are made: the order of faults of the list made first, then read.
struct Fold {
    op: Op,
    count: i64,
    seen: bool,
    all: bool,
    /// 100,000 items of 64 bits cannot overflow it: only the sum is checked, as `sum` of a list checks it
    total: i128,
    best: Option<V>,
    fault: Option<crate::state::Fault>,
}

impl Fold {
    fn new(op: Op) -> Fold {
        Fold {
            op,
            count: 0,
            seen: false,
            all: true,
            total: 0,
            best: None,
            fault: None,
        }
    }

    fn finish(self) -> Res<V> {
        if let Some(f) = self.fault {
            return Err(f);
        }
        Ok(match self.op {
            Op::IsEmpty => V::Bool(self.count == 0),
            Op::Any => V::Bool(self.seen),
            Op::All => V::Bool(self.all),
            Op::Sum => checked(i64::try_from(self.total).ok())?,
            Op::Max | Op::Min => self.best.unwrap_or(V::Int(0)),
            _ => V::Int(self.count),
        })
    }
}

impl Sink for Fold {
    fn take(&mut self, st: &State, v: V) {
        self.count += 1;
        if self.fault.is_some() {
            return;
        }
        match self.op {
            Op::Any => self.seen = self.seen || st.truthy(&v),
            Op::All => self.all = self.all && st.truthy(&v),
            Op::Sum => match ints("+", &V::Int(0), &v) {
                // Python's sum adds to a number
                Ok((_, x)) => self.total += i128::from(x),
                Err(f) => self.fault = Some(f),
            },
            Op::Max | Op::Min => {
                let Some(b) = &self.best else {
                    self.best = Some(v);
                    return;
                };
                let max = self.op == Op::Max;
                match st.compare(if max { ">" } else { "<" }, &v, b) {
                    Ok(o) if o == if max { Ordering::Greater } else { Ordering::Less } => self.best = Some(v),
                    Ok(_) => {}
                    Err(f) => self.fault = Some(f),
                }
            }
            _ => {}
        }
    }
}

impl State {
    /// The value of `n` read in place — a literal, a local, a variable, or a field, attribute or player
    /// variable of one — where reading it can neither fail nor change anything; None: evaluate it.
    fn peek<'a>(&'a self, g: &'a Game, n: Node, env: &'a [V]) -> Option<&'a V> {
        match &g.nodes[n as usize] {
            Expr::Lit(v) => Some(v),
            Expr::Local(slot, false) => match &env[*slot as usize] {
                V::Unset => None,
                v => Some(v),
            },
            Expr::Var(i) => Some(&self.vars[*i as usize]),
            Expr::Field(obj, name) => match self.peek(g, *obj, env)? {
                V::None | V::Unset => None,
                r => Some(r.field(*name).unwrap_or(&g.none)),
            },
            Expr::Attr(obj, i) => match self.peek(g, *obj, env)? {
                V::Int(c) if *c >= 0 && (*c as usize) < self.loc.len() => Some(&g.attrs[*i as usize][*c as usize]),
                _ => None,
            },
            Expr::PVar(obj, i) => match self.peek(g, *obj, env)? {
                V::Int(p) if *p >= 0 && (*p as usize) < self.n => Some(&self.pvars[*p as usize][*i as usize]),
                _ => None,
            },
            _ => None,
        }
    }

    /// `peek`, without a call where the node is of no kind read in place (an operation, a call, …).
    #[inline(always)]
    pub(crate) fn peek_at<'a>(&'a self, g: &'a Game, n: Node, env: &'a [V]) -> Option<&'a V> {
        match &g.nodes[n as usize] {
            Expr::Lit(v) => Some(v),
            Expr::Local(..) | Expr::Var(_) | Expr::Field(..) | Expr::Attr(..) | Expr::PVar(..) => self.peek(g, n, env),
            _ => None,
        }
    }

    /// The value of expression `n`: its form run (compile.rs).
    #[inline(always)]
    pub fn value_of(&mut self, g: &Game, n: Node, env: &mut [V]) -> Res<V> {
        #[cfg(feature = "profile")]
        crate::profile::node();
        (g.code.get(n))(self, g, env)
    }

    /// `value_of`, its fault unboxed (for callers outside the evaluator).
    pub fn eval(&mut self, g: &Game, n: Node, env: &mut [V]) -> Result<V, F> {
        self.value_of(g, n, env).map_err(|f| *f)
    }

    /// Whether the value of expression `n` is true (its test, compile.rs).
    #[inline(always)]
    pub fn truth(&mut self, g: &Game, n: Node, env: &mut [V]) -> Res<bool> {
        #[cfg(feature = "profile")]
        crate::profile::node();
        (g.code.test(n))(self, g, env)
    }

    /// The generic code of the nodes compile.rs gives no form of their own.
    pub(crate) fn eval_node(&mut self, g: &Game, n: Node, env: &mut [V]) -> Res<V> {
        let game = g;
        match &game.nodes[n as usize] {
            Expr::Local(slot, pop) => {
                let v = if *pop {
                    std::mem::take(&mut env[*slot as usize])
                } else {
                    env[*slot as usize].clone()
                };
                if matches!(v, V::Unset) {
                    let name = self.local_name(*slot);
                    return rule(format!("'{name}' has no value yet"));
                }
                Ok(v)
            }
            Expr::List(items) => {
                let mut out = self.pool.list();
                for &i in items {
                    match self.value_of(g, i, env) {
                        Ok(v) => out.push(v),
                        Err(f) => {
                            self.pool.unused(out);
                            return Err(f);
                        }
                    }
                }
                Ok(V::List(self.pool.made(out)))
            }
            Expr::Comp { .. } => {
                let mut out = self.pool.list();
                match self.comp(g, n, env, &mut out) {
                    Ok(()) => Ok(V::List(self.pool.made(out))),
                    Err(f) => {
                        self.pool.unused(out);
                        Err(f)
                    }
                }
            }
            Expr::Append(list, comp) => {
                let x = self.value_of(g, *list, env)?;
                let mut more = self.pool.list();
                if let Err(f) = self.comp(g, *comp, env, &mut more) {
                    self.pool.unused(more);
                    return Err(f);
                }
                let V::List(p) = &x else {
                    let q = V::List(self.pool.made(more));
                    return self.combine(Bin::Add, &x, &q);
                };
                if more.is_empty() {
                    self.pool.unused(more);
                    return Ok(x);
                }
                let total = p.len() + more.len();
                if total > MAX_SIZE {
                    self.pool.unused(more);
                    return rule(format!(
                        "a list of {} items is over the size budget of 100,000: does a loop make it grow without end?",
                        grouped(total)
                    ));
                }
                let out: Shared<V> = p.iter().cloned().chain(more.drain(..)).collect();
                self.pool.unused(more);
                Ok(V::List(out))
            }
            Expr::Fused(op, comp) => {
                let mut fold = Fold::new(*op);
                self.comp(g, *comp, env, &mut fold)?;
                fold.finish()
            }
            Expr::Field(obj, name) => {
                if let Some(v) = self.peek(g, n, env) {
                    return Ok(v.clone());
                }
                let r = self.value_of(g, *obj, env)?;
                if r.is_none() {
                    return rule(format!("no record to read '{}' of", game.text(*name)));
                }
                Ok(r.field(*name).cloned().unwrap_or(V::None))
            }
            Expr::PVar(obj, i) => {
                if let Some(v) = self.peek(g, n, env) {
                    return Ok(v.clone());
                }
                let p = self.value_of(g, *obj, env)?;
                if p.is_none() {
                    return rule(format!("no player to read '{}' of", game.pvars[*i as usize].name));
                }
                let p = self.seat(&p)?;
                Ok(self.pvars[p][*i as usize].clone())
            }
            Expr::Attr(obj, i) => {
                if let Some(v) = self.peek(g, n, env) {
                    return Ok(v.clone());
                }
                let c = self.value_of(g, *obj, env)?;
                self.attr_of(g, *i, &c)
            }
            Expr::Cards(z) => {
                let zone = self.value_of(g, *z, env)?;
                let zi = self.zone_index(&zone)?;
                self.unseen_zone(zi)?;
                Ok(V::List(self.zones[zi].iter().map(|&c| V::Int(i64::from(c))).collect()))
            }
            Expr::Neg(e) => negated(&self.value_of(g, *e, env)?).map(V::Int),
            Expr::PathLength(t, board, start, targets, through) => {
                let [board, start, tg, th] = self.values(g, &[*board, *start, *targets, *through], env)?;
                let V::Str(board) = board else {
                    return rule(NO_BOARD);
                };
                self.path_length(*t, board, &start, list(&tg, "path_length")?, list(&th, "path_length")?)
            }
            Expr::Connected(t, board, sources, targets, through) => {
                let [board, s, tg, th] = self.values(g, &[*board, *sources, *targets, *through], env)?;
                let V::Str(board) = board else {
                    return rule(NO_BOARD);
                };
                // as the reference: the spaces to pass through, then the targets, then (where it must) the sources
                let through = list(&th, "connected")?;
                self.connected(*t, board, &s, list(&tg, "connected")?, through)
            }
            Expr::Walk(how, neighbours, steps, board, args) => {
                let V::Str(board) = self.value_of(g, *board, env)? else {
                    return self.no_board(g, args, env);
                };
                let vals = self.all_values(g, args, env)?;
                self.walk(*how, *neighbours, *steps, board, &vals)
            }
            Expr::Lit(_)
            | Expr::Var(_)
            | Expr::Record(_)
            | Expr::Inline(..)
            | Expr::Memo(..)
            | Expr::ZoneLen(..)
            | Expr::Not(_)
            | Expr::Cond(..)
            | Expr::Bin(..)
            | Expr::Op(..)
            | Expr::Fn(..)
            | Expr::Member(..)
            | Expr::Table(..)
            | Expr::Keyed { .. } => Err(Box::new(F::Bug("a node of a kind compiled to its own form".into()))),
        }
    }

    /// The elements of comprehension `comp`, each given to `out` as it is made; over a zone's cards it reads
    /// a copy of the zone, not a list of them made first.
    #[inline(never)]
    fn comp(&mut self, g: &Game, comp: Node, env: &mut [V], out: &mut impl Sink) -> Res<()> {
        let Expr::Comp {
            var,
            source,
            element,
            cond,
        } = g.nodes[comp as usize]
        else {
            return Err(Box::new(F::Bug("a fused operation without its comprehension".into())));
        };
        if let Expr::Cards(z) = g.nodes[source as usize] {
            let zone = self.value_of(g, z, env)?;
            let zi = self.zone_index(&zone)?;
            self.unseen_zone(zi)?;
            let cards = &self.zones[zi];
            let mut small = [0u32; 64];
            let large;
            let cards: &[u32] = if cards.len() <= small.len() {
                small[..cards.len()].copy_from_slice(cards);
                &small[..cards.len()]
            } else {
                large = cards.to_vec();
                &large
            };
            let items = cards.iter().map(|&c| V::Int(i64::from(c)));
            return self.comp_over(g, (var, element, cond), items, env, out);
        }
        let items = self.items(g, source, env)?;
        self.comp_over(g, (var, element, cond), items.iter().cloned(), env, out)
    }

    /// The comprehension's elements over `items`; `parts`: its variable, element and condition.
    fn comp_over(
        &mut self,
        g: &Game,
        parts: (u16, Node, Option<Node>),
        items: impl ExactSizeIterator<Item = V>,
        env: &mut [V],
        out: &mut impl Sink,
    ) -> Res<()> {
        let (var, element, cond) = (&parts.0, &parts.1, &parts.2);
        let saved = std::mem::take(&mut env[*var as usize]);
        out.start(items.len());
        let mut result = Ok(());
        for x in items {
            env[*var as usize] = x;
            if let Some(c) = cond {
                match self.truth(g, *c, env) {
                    Ok(false) => continue,
                    Ok(true) => {}
                    Err(f) => {
                        result = Err(f);
                        break;
                    }
                }
            }
            match self.value_of(g, *element, env) {
                Ok(v) => out.take(self, v),
                Err(f) => {
                    result = Err(f);
                    break;
                }
            }
        }
        env[*var as usize] = saved;
        result
    }

    #[inline(never)]
    pub(crate) fn keyed(&mut self, g: &Game, how: Keyed, it: u16, source: Node, key: Node, env: &mut [V]) -> Res<V> {
        let (how, it, source, key) = (&how, &it, &source, &key);
        let items = self.items(g, *source, env)?;
        let saved = std::mem::take(&mut env[*it as usize]);
        let mut keys = Vec::with_capacity(items.len());
        let mut result = Ok(());
        for x in items.iter() {
            env[*it as usize] = x.clone();
            match self.value_of(g, *key, env) {
                Ok(k) => keys.push(k),
                Err(f) => {
                    result = Err(f);
                    break;
                }
            }
        }
        env[*it as usize] = saved;
        result?;
        let what = match how {
            Keyed::Max => "max",
            Keyed::Min => "min",
            Keyed::Sorted => "sorted",
        };
        let order = self.order(&keys, &format!("{what}(…, by: …)"))?;
        Ok(match how {
            Keyed::Max => match order.last() {
                None => V::None,
                Some(&i) => {
                    let best = &keys[i];
                    let j = keys.iter().position(|k| k.same(best)).unwrap_or(i);
                    items[j].clone()
                }
            },
            Keyed::Min => order.first().map_or(V::None, |&i| items[i].clone()),
            Keyed::Sorted => V::list(order.iter().map(|&i| items[i].clone()).collect()),
        })
    }

    /// `FAMILY(key)`: the zone of the family that `k` names.
    #[inline(never)]
    pub(crate) fn member_of(&self, g: &Game, fam: u32, k: &V) -> Res<V> {
        let game = g;
        let fam = &fam;
        let family = game.text(*fam);
        let found = match (game.families.get(fam), k) {
            (_, V::None | V::Unset) => return rule(format!("{family}(…) of nothing: its key is none")),
            (Some(Family::Player(zones)), V::Int(p)) if *p >= 0 => zones.get(*p as usize).copied(),
            (Some(Family::Text(keys)), V::Str(s)) => keys.get(s).copied(),
            _ => None,
        };
        match found {
            Some(z) => Ok(V::Str(z)),
            None => {
                // the name of no zone, as the reference makes it (a fault only where it is used as a zone)
                let key = match k {
                    V::Str(_) | V::Text(_) => self.text_of(k).to_string(),
                    other => self.repr(other),
                };
                Ok(self.game.text_value(&format!("{family}:{key}")))
            }
        }
    }

    #[inline(never)]
    pub(crate) fn call(&mut self, g: &Game, f: u16, args: &[Node], env: &mut [V]) -> Res<V> {
        self.pool.enter()?;
        let result = self.called(g, f, args, env);
        self.pool.leave();
        result
    }

    fn called(&mut self, g: &Game, f: u16, args: &[Node], env: &mut [V]) -> Res<V> {
        let func = &g.funcs[f as usize];
        if func.nlocals <= SMALL_FRAME {
            // A few locals live on the native stack, not in an array taken from the pool and given back, and are
            // discarded after a look at each one's tag (most own nothing).
            let mut inner: [V; SMALL_FRAME] = Default::default();
            inner[0] = env[0].clone();
            let result = self.called_in(g, f, args, env, &mut inner[..func.nlocals.max(1)]);
            inner.into_iter().for_each(V::discard);
            return result;
        }
        // More live in an array taken from the state's pool and given back: no allocation per call.
        let mut inner = self.pool.take(env[0].clone(), func.nlocals);
        let result = self.called_in(g, f, args, env, &mut inner);
        self.pool.give(inner);
        result
    }

    /// Function `f` run in `inner`, its locals (`me` set, the others unset), on the arguments `args` read in `env`.
    #[inline(always)]
    fn called_in(&mut self, g: &Game, f: u16, args: &[Node], env: &mut [V], inner: &mut [V]) -> Res<V> {
        let func = &g.funcs[f as usize];
        for (&p, &a) in func.params.iter().zip(args) {
            inner[p as usize] = self.value_of(g, a, env)?;
        }
        #[cfg(feature = "profile")]
        let since = crate::profile::nodes(); // the arguments are the caller's work
        let result = match &func.body {
            Body::Expr(e) => self.value_of(g, *e, inner),
            Body::Code(code) => self.run_function(g, code, inner),
        };
        #[cfg(feature = "profile")]
        crate::profile::function(f, since);
        result
    }

    /// The fault of a board operation given no board, once its other arguments are worked out (a fault of
    /// theirs comes first, as the reference works out every argument before the call).
    #[cold]
    pub(crate) fn no_board(&mut self, g: &Game, args: &[Node], env: &mut [V]) -> Res<V> {
        self.all_values(g, args, env)?;
        rule(NO_BOARD)
    }

    /// A space, tag or direction given to a board operation: a text of the table, or `NO_TEXT` with the value
    /// kept in `odd` (none, a number, a text made while playing) for the message of a miss.
    pub(crate) fn space(&mut self, g: &Game, a: Node, env: &mut [V], odd: &mut Option<V>) -> Res<u32> {
        match self.value_of(g, a, env)? {
            V::Str(s) => Ok(s),
            other => {
                *odd = Some(other);
                Ok(NO_TEXT)
            }
        }
    }

    /// The fault of a board operation given `given` where a space of `board` goes, in the reference's words.
    fn no_space<T>(&self, g: &Game, board: u32, given: &V) -> Res<T> {
        let spaces = g.board_spaces.get(&board).map_or(&[][..], Vec::as_slice);
        let name = match given {
            V::None | V::Unset => "None".to_string(),
            V::Int(n) => n.to_string(),
            V::Bool(b) => if *b { "True" } else { "False" }.to_string(),
            V::Str(_) | V::Text(_) => self.text_of(given).to_string(),
            other => self.repr(other),
        };
        let hint = crate::close::close_match(&name, spaces.iter().map(|&s| g.text(s)))
            .map_or(String::new(), |close| format!(" (did you mean '{close}'?)"));
        let named = g.board_names.get(&board).copied().unwrap_or(board);
        rule(format!(
            "board '{}' has no space {}{hint}",
            g.text(named),
            self.quoted(given)
        ))
    }

    /// What the reference answers where table `t` holds no entry under `key`: the fault naming the first
    /// argument it checks that is no space of the board (with its "did you mean"), else its answer for
    /// arguments that are none of the board's.
    #[cold]
    fn missed(&self, g: &Game, t: u16, key: [u32; 4], odd: &Odd) -> Res<V> {
        let miss = &g.misses[t as usize];
        let spaces = g.board_spaces.get(&key[0]).map_or(&[][..], Vec::as_slice);
        for &i in &miss.checks {
            if key[i + 1] != NO_TEXT && spaces.contains(&key[i + 1]) {
                continue;
            }
            return self.no_space(g, key[0], &odd[i].clone().unwrap_or(V::Str(key[i + 1])));
        }
        if g.text(key[0]).is_empty() {
            // the table of `card_named`, looked up under the board "": an id no card has
            let id = self.quoted(&odd[0].clone().unwrap_or(V::Str(key[1])));
            return rule(format!("no card has the id {id}"));
        }
        if let Some((i, text)) = miss.stand_in {
            let mut key = key;
            key[i + 1] = text;
            if let Some(v) = g.tables[t as usize].get(key) {
                return Ok(v);
            }
        }
        match (&miss.default, &miss.fault) {
            (Some(v), _) => Ok(v.clone()),
            // the board a family's fault names is the one looked up (lower.py's BOARD_NAMED)
            (None, Some(said)) => rule(said.replace('\u{1}', g.text(key[0]))),
            (None, None) => rule("a board operation was asked of a space, tag or direction the board does not have"),
        }
    }

    /// The entry of board table `t` under `key` (its board, then its spaces, tags or directions).
    #[inline(always)]
    pub(crate) fn entry(&self, g: &Game, t: u16, key: [u32; 4], odd: &Odd) -> Res<V> {
        match g.tables[t as usize].get(key) {
            Some(v) => Ok(v),
            None => self.missed(g, t, key, odd),
        }
    }

    /// The characters of a text value (empty for any other value).
    pub fn text_of<'a>(&'a self, v: &'a V) -> &'a str {
        match v {
            V::Str(s) => self.game.text(*s),
            V::Text(t) => t,
            _ => "",
        }
    }

    pub(crate) fn local_name(&self, slot: u16) -> String {
        let Some(f) = self.stack.last() else {
            return "?".into();
        };
        let p = &self.game.procs[f.proc as usize];
        p.locals
            .get(slot as usize)
            .map_or_else(|| "?".into(), |n| n.to_string())
    }

    /// A function written as statements: its own steps, its 'return VALUE' ends it.
    fn run_function(&mut self, g: &Game, code: &[crate::game::Ins], env: &mut [V]) -> Res<V> {
        let saved = self.fsteps;
        let budget = self.game.step_budget;
        let mut pc = 0u32;
        let out = loop {
            self.fsteps += 1;
            if self.fsteps > budget {
                break Err(Box::new(F::Overrun));
            }
            let Some(ins) = code.get(pc as usize) else {
                break Err(Box::new(F::Bug("a function ran past its end".into())));
            };
            match ins {
                crate::game::Ins::Give(e, _) => break self.value_of(g, *e, env),
                crate::game::Ins::Assign(store, e) => {
                    match self.value_of(g, *e, env).and_then(|v| self.store(g, store, v, env)) {
                        Ok(()) => pc += 1,
                        Err(f) => break Err(f),
                    }
                }
                crate::game::Ins::If(c, skip) => match self.truth(g, *c, env) {
                    Ok(v) => pc = if v { pc + 1 } else { *skip },
                    Err(f) => break Err(f),
                },
                crate::game::Ins::Jump(to) => pc = *to,
                crate::game::Ins::ForStart(key, source) => match self.items(g, *source, env) {
                    Ok(items) => {
                        env[*key as usize] = V::Iter(0, items);
                        pc += 1;
                    }
                    Err(f) => break Err(f),
                },
                crate::game::Ins::ForStep(key, var, done) => {
                    let V::Iter(i, items) = env[*key as usize].clone() else {
                        break Err(Box::new(F::Bug("a loop's state is missing".into())));
                    };
                    if (i as usize) < items.len() {
                        env[*var as usize] = items[i as usize].clone();
                        env[*key as usize] = V::Iter(i + 1, items);
                        pc += 1;
                    } else {
                        env[*key as usize] = V::Unset;
                        pc = *done;
                    }
                }
                crate::game::Ins::RepeatStart(key, count) => match self.value_of(g, *count, env) {
                    Ok(v) => {
                        env[*key as usize] = v;
                        pc += 1;
                    }
                    Err(f) => break Err(f),
                },
                crate::game::Ins::RepeatStep(key, done) => {
                    let left = match int(&env[*key as usize], "repeat") {
                        Ok(l) => l,
                        Err(f) => break Err(f),
                    };
                    if left > 0 {
                        env[*key as usize] = V::Int(left - 1);
                        pc += 1;
                    } else {
                        env[*key as usize] = V::Unset;
                        pc = *done;
                    }
                }
                crate::game::Ins::Do(e) => match self.value_of(g, *e, env) {
                    Ok(_) => pc += 1,
                    Err(f) => break Err(f),
                },
                // `break` out of a `for` or `repeat`: the loop's state goes, as a procedure's `close` does
                crate::game::Ins::Close(key, done) => {
                    env[*key as usize] = V::Unset;
                    pc = *done;
                }
                _ => break Err(Box::new(F::Bug("a statement a function may not hold".into()))),
            }
        };
        self.fsteps = saved;
        out
    }

    pub fn items(&mut self, g: &Game, n: Node, env: &mut [V]) -> Res<Shared<V>> {
        match self.value_of(g, n, env)? {
            V::List(l) => Ok(l),
            other => failed(format!("{} is not a list", other.kind())),
        }
    }

    fn compare(&self, op: &str, a: &V, b: &V) -> Res<Ordering> {
        match (a, b) {
            (V::Int(_) | V::Bool(_), V::Int(_) | V::Bool(_)) => Ok(int(a, "")?.cmp(&int(b, "")?)),
            (V::Str(_) | V::Text(_), V::Str(_) | V::Text(_)) => Ok(self.text_of(a).cmp(self.text_of(b))),
            (V::List(x), V::List(y)) => {
                for (p, q) in x.iter().zip(y.iter()) {
                    let o = self.compare(op, p, q)?;
                    if o != Ordering::Equal {
                        return Ok(o);
                    }
                }
                Ok(x.len().cmp(&y.len()))
            }
            _ => failed(format!("'{op}' cannot compare {} and {}", py_kind(a), py_kind(b))),
        }
    }

    /// The indexes of `keys` from the smallest to the largest (equals keep their order).
    pub(crate) fn order(&self, keys: &[V], what: &str) -> Res<Vec<usize>> {
        let ints = keys.iter().all(|k| matches!(k, V::Int(_)));
        let texts = keys.iter().all(|k| matches!(k, V::Str(_) | V::Text(_)));
        if !ints && !texts {
            let first = self.quoted(&V::list(keys.iter().take(4).cloned().collect()));
            return rule(format!(
                "{what}: only numbers or only text can be put in order, not {first}"
            ));
        }
        let mut order: Vec<usize> = (0..keys.len()).collect();
        order.sort_by(|&i, &j| self.compare("<", &keys[i], &keys[j]).unwrap_or(Ordering::Equal));
        Ok(order)
    }

    pub(crate) fn binary(&mut self, g: &Game, op: Bin, a: Node, b: Node, env: &mut [V]) -> Res<V> {
        if let Bin::And | Bin::Or = op {
            let x = self.value_of(g, a, env)?;
            return match (op, self.truthy(&x)) {
                (Bin::And, true) | (Bin::Or, false) => self.value_of(g, b, env),
                _ => Ok(x),
            };
        }
        // Operands read in place (`n > 0`, `c.suit == "hearts"`) are not evaluated and copied; otherwise the left
        // is evaluated before the right, as written.
        if let Some(x) = self.peek_at(g, a, env) {
            if let Some(y) = self.peek_at(g, b, env) {
                return self.combine(op, x, y);
            }
        }
        let x = self.value_of(g, a, env)?;
        if let Some(y) = self.peek_at(g, b, env) {
            return self.combine(op, &x, y);
        }
        let y = self.value_of(g, b, env)?;
        self.combine(op, &x, &y)
    }

    /// Whether comparison `op` (or `in`, `not in`) holds of `x` and `y`.
    /// Whether `x op y` holds for a comparison or `in`: two numbers, and two texts of the table compared for
    /// (in)equality, the commonest, compared here; others by `compared`.
    #[inline(always)]
    pub(crate) fn holds(&self, op: Bin, x: &V, y: &V) -> Res<bool> {
        match (x, y, op) {
            (V::Int(a), V::Int(b), Bin::Eq) => Ok(a == b),
            (V::Int(a), V::Int(b), Bin::Ne) => Ok(a != b),
            (V::Int(a), V::Int(b), Bin::Lt) => Ok(a < b),
            (V::Int(a), V::Int(b), Bin::Le) => Ok(a <= b),
            (V::Int(a), V::Int(b), Bin::Gt) => Ok(a > b),
            (V::Int(a), V::Int(b), Bin::Ge) => Ok(a >= b),
            (V::Str(a), V::Str(b), Bin::Eq) => Ok(a == b),
            (V::Str(a), V::Str(b), Bin::Ne) => Ok(a != b),
            _ => self.compared(op, x, y),
        }
    }

    #[inline(never)]
    fn compared(&self, op: Bin, x: &V, y: &V) -> Res<bool> {
        Ok(match op {
            Bin::Eq => x.same(y),
            Bin::Ne => !x.same(y),
            Bin::Lt => self.compare("<", x, y)? == Ordering::Less,
            Bin::Le => self.compare("<=", x, y)? != Ordering::Greater,
            Bin::Gt => self.compare(">", x, y)? == Ordering::Greater,
            Bin::Ge => self.compare(">=", x, y)? != Ordering::Less,
            Bin::In | Bin::NotIn => {
                let found = match y {
                    V::Rec(_) => crate::maps::has(x, y)?,
                    _ => list(y, "in")?.iter().any(|i| i.same(x)),
                };
                found == (op == Bin::In)
            }
            _ => {
                return Err(Box::new(F::Bug(
                    "a comparison of an operator that compares nothing".into(),
                )))
            }
        })
    }

    pub(crate) fn combine(&self, op: Bin, x: &V, y: &V) -> Res<V> {
        Ok(match op {
            Bin::Eq | Bin::Ne | Bin::Lt | Bin::Le | Bin::Gt | Bin::Ge | Bin::In | Bin::NotIn => {
                V::Bool(self.holds(op, x, y)?)
            }
            Bin::Add => match (x, y) {
                (V::List(p), V::List(q)) => {
                    if p.len() + q.len() > MAX_SIZE {
                        return bounded(p.iter().chain(q.iter()).cloned().collect());
                    }
                    match (p.is_empty(), q.is_empty()) {
                        (true, _) => y.clone(),
                        (_, true) => x.clone(),
                        _ => V::List(p.iter().chain(q.iter()).cloned().collect()),
                    }
                }
                (V::Str(_) | V::Text(_), V::Str(_) | V::Text(_)) => return self.join(x, y),
                _ => {
                    let (p, q) = ints("+", x, y)?;
                    checked(p.checked_add(q))?
                }
            },
            Bin::Sub => {
                let (p, q) = ints("-", x, y)?;
                checked(p.checked_sub(q))?
            }
            Bin::Mul => match (x, y) {
                (V::List(p), k) | (k, V::List(p)) => {
                    let k = int(k, "*")?.max(0) as usize;
                    if p.len().saturating_mul(k) > MAX_SIZE {
                        return rule(format!(
                            "a list of {} items is over the size budget of 100,000: does a loop make it grow without \
                             end?",
                            grouped(p.len() as u128 * k as u128)
                        ));
                    }
                    V::list(p.iter().cloned().cycle().take(p.len() * k).collect())
                }
                // the reference puts a number first (`times`): a number and none cannot combine as none and it
                (V::Int(_), other) if !matches!(other, V::Int(_) | V::Bool(_)) => {
                    return Err(ints("*", y, x).unwrap_err());
                }
                _ => {
                    let (p, q) = ints("*", x, y)?;
                    checked(p.checked_mul(q))?
                }
            },
            Bin::Div | Bin::Mod => {
                if matches!(y, V::Int(0) | V::Bool(false)) {
                    return rule("division by zero");
                }
                let (p, q) = ints(if op == Bin::Div { "//" } else { "%" }, x, y)?;
                let (d, m) = (p.wrapping_div(q), p.wrapping_rem(q));
                let floor = m != 0 && ((m < 0) != (q < 0));
                if op == Bin::Div {
                    V::Int(if floor { d - 1 } else { d })
                } else {
                    V::Int(if floor { m + q } else { m })
                }
            }
            Bin::And | Bin::Or => unreachable!("handled above"),
        })
    }

    /// `x + y` of two texts. Joins of a text of the table, or of a text an earlier join made, with a text of the
    /// table are made once (zone and space names are often made so, a part at a time: `a + "/" + side`).
    fn join(&self, x: &V, y: &V) -> Res<V> {
        // A text made while playing is known by its address, its text kept alive beside the join so that no
        // other text can take that address while the join is kept.
        let made = |t: &SharedStr| t.address();
        match (x, y) {
            (V::Str(a), V::Str(b)) => {
                if let Some(v) = self.game.joined.borrow().get(&(*a, *b)) {
                    return Ok(v.clone());
                }
            }
            (V::Text(t), V::Str(b)) => {
                if let Some((_, v)) = self.game.joined_made.borrow().get(&(made(t), *b)) {
                    return Ok(v.clone());
                }
            }
            _ => {}
        }
        let joined = format!("{}{}", self.text_of(x), self.text_of(y));
        if joined.chars().count() > MAX_SIZE {
            return rule(format!(
                "a text of {} characters is over the size budget of 100,000: does a loop make it grow without end?",
                grouped(joined.chars().count())
            ));
        }
        let value = self.game.text_value(&joined);
        match (x, y) {
            (V::Str(a), V::Str(b)) => {
                let mut kept = self.game.joined.borrow_mut();
                if kept.len() >= 65_536 {
                    kept.clear();
                }
                kept.insert((*a, *b), value.clone());
            }
            (V::Text(t), V::Str(b)) => {
                let mut kept = self.game.joined_made.borrow_mut();
                if kept.len() >= 65_536 {
                    kept.clear();
                }
                kept.insert((made(t), *b), (t.clone(), value.clone()));
            }
            _ => {}
        }
        Ok(value)
    }

    /// The first `K` arguments of an operation, each worked out in order before the operation checks any: the
    /// reference's operations are Python functions, called with their arguments' values.
    #[inline(always)]
    fn values<const K: usize>(&mut self, g: &Game, args: &[Node], env: &mut [V]) -> Res<[V; K]> {
        let args: &[Node; K] = args.get(..K).and_then(|a| a.try_into().ok()).ok_or_else(lacking)?;
        let mut out = [const { V::None }; K];
        for (slot, &a) in out.iter_mut().zip(args) {
            // the placeholder holds nothing to free: forgotten, not dropped (a call per argument otherwise)
            std::mem::forget(std::mem::replace(slot, self.value_of(g, a, env)?));
        }
        Ok(out)
    }

    /// Every argument of an operation whose number of arguments varies, worked out in order as `values` works
    /// them out.
    pub(crate) fn all_values(&mut self, g: &Game, args: &[Node], env: &mut [V]) -> Res<Vec<V>> {
        args.iter().map(|&a| self.value_of(g, a, env)).collect()
    }

    fn zone_arg(&mut self, g: &Game, n: Node, env: &mut [V]) -> Res<usize> {
        let z = self.value_of(g, n, env)?;
        self.zone_index(&z)
    }

    /// A seat given to an operation; none fails as the reference's arithmetic on it does (`op`: its operator).
    fn seat_arg(&mut self, g: &Game, n: Node, env: &mut [V], op: &str) -> Res<i64> {
        let v = self.value_of(g, n, env)?;
        Ok(ints(op, &v, &V::Int(0))?.0)
    }

    /// `zone_of(c)`: the name of the zone card `c` is in.
    pub(crate) fn zone_of(&self, c: &V) -> Res<V> {
        Ok(V::Str(self.zone_name_of(self.card(c, "zone_of")?)?))
    }

    /// The name of the zone card `c` lies in (its text id): a read of where the card lies.
    #[inline(always)]
    fn zone_name_of(&self, c: usize) -> Res<u32> {
        self.unseen_place(c)?;
        Ok(self.seats().zones[self.loc[c] as usize])
    }

    /// `key_of(zone_of(c))`: the key of the zone card `c` lies in, from the table of keys without making the
    /// zone's name a value first (the generic `key_of` where the table has no such key).
    pub(crate) fn place_key(&self, g: &Game, c: &V) -> Res<V> {
        let zone = self.zone_name_of(self.card(c, "zone_of")?)?;
        match g.keys[zone as usize] {
            u32::MAX => self.key_of(g, &V::Str(zone)),
            key => Ok(V::Str(key)),
        }
    }

    /// Attribute `i` of card `c`.
    #[inline(always)]
    pub(crate) fn attr_of(&self, g: &Game, i: u16, c: &V) -> Res<V> {
        if c.is_none() {
            let name = g
                .attr_names
                .iter()
                .find(|&(_, &k)| k == i)
                .map_or("", |(&id, _)| g.text(id));
            return rule(format!("no card to read '{name}' of"));
        }
        let c = self.card(c, "an attribute")?;
        Ok(g.attrs[i as usize][c].clone())
    }

    /// `key_of(z)`: the text after the first ':' of a zone's name ("" where it has none).
    pub(crate) fn key_of(&self, g: &Game, z: &V) -> Res<V> {
        if matches!(z, V::None | V::Unset) {
            return rule("there is no zone 'None'"); // as every zone operation given none says
        }
        if let V::Str(id) = z {
            let key = g.keys[*id as usize];
            if key != u32::MAX {
                return Ok(V::Str(key));
            }
        }
        let text = self.text_of(z);
        let key = text.split_once(':').map_or("", |(_, k)| k).to_string();
        Ok(self.game.text_value(&key))
    }

    pub(crate) fn op(&mut self, g: &Game, op: Op, args: &[Node], env: &mut [V]) -> Res<V> {
        let arg = |i: usize| args.get(i).copied().ok_or_else(lacking);
        let n = self.n as i64;
        Ok(match op {
            Op::Top | Op::Bottom => {
                let z = self.zone_arg(g, arg(0)?, env)?;
                self.unseen_zone(z)?;
                let card = if op == Op::Top {
                    self.zones[z].last()
                } else {
                    self.zones[z].first()
                };
                match card {
                    Some(&c) => V::Int(i64::from(c)),
                    None => {
                        let name = self.game.text(self.seats().zones[z]);
                        let which = if op == Op::Top { "top" } else { "bottom" };
                        return rule(format!("zone '{name}' is empty, it has no {which} card"));
                    }
                }
            }
            Op::Size => match self.value_of(g, arg(0)?, env)? {
                V::List(l) => V::Int(l.len() as i64),
                // a value typed `any` may hold a text (a zone's name): the reference's `len` counts its characters
                t @ (V::Str(_) | V::Text(_)) => V::Int(self.text_of(&t).chars().count() as i64),
                other => return failed(format!("{} has no length", py_kind(&other))),
            },
            Op::IsEmpty => match self.value_of(g, arg(0)?, env)? {
                V::None | V::Unset => V::Bool(true), // the reference's `not items`: none has nothing
                other => V::Bool(list(&other, "is_empty")?.is_empty()),
            },
            Op::Cards => {
                let z = self.zone_arg(g, arg(0)?, env)?;
                self.unseen_zone(z)?;
                V::List(self.zones[z].iter().map(|&c| V::Int(i64::from(c))).collect())
            }
            Op::TopCards => {
                let [z, k] = self.values(g, args, env)?;
                let z = self.zone_index(&z)?;
                self.unseen_zone(z)?;
                let k = match k {
                    V::Int(k) => k.max(0) as usize,
                    V::Bool(b) => usize::from(b),
                    other => return failed(format!("'>' cannot compare {} and a number", py_kind(&other))), // max(0, n)
                };
                V::list(
                    self.zones[z]
                        .iter()
                        .rev()
                        .take(k)
                        .map(|&c| V::Int(i64::from(c)))
                        .collect(),
                )
            }
            Op::ZoneOf => {
                let c = self.value_of(g, arg(0)?, env)?;
                self.zone_of(&c)?
            }
            Op::Move | Op::MoveBottom => {
                let [c, to] = self.values(g, args, env)?;
                let what = if op == Op::Move { "move" } else { "move_bottom" };
                let c = self.card(&c, what)?;
                let to = self.zone_index(&to)?;
                self.move_card(c, to, op == Op::Move)?;
                V::None
            }
            Op::MoveAll => {
                let [source, to] = self.values(g, args, env)?;
                let (source, to) = (self.zone_index(&source)?, self.zone_index(&to)?);
                self.move_all(source, to);
                V::None
            }
            Op::Shuffle => {
                let z = self.zone_arg(g, arg(0)?, env)?;
                self.shuffle_zone(z)?;
                self.zone_changed(z);
                self.happened(Hist::Shuffle(self.seats().zones[z]));
                self.reordered(z);
                V::None
            }
            Op::Sort => {
                let [z, name] = self.values(g, args, env)?;
                let z = self.zone_index(&z)?;
                let Some(&attr) = (match name {
                    V::Str(s) => self.game.attr_names.get(&s),
                    _ => None,
                }) else {
                    return rule("sort: no such card attribute");
                };
                let game = g;
                let column = &game.attrs[attr as usize];
                let mut cards = self.zones[z].to_vec();
                let mut failed_on = None;
                // Largest first, cards without a value at the bottom; equals keep their order.
                cards.sort_by(|a, b| {
                    let (x, y) = (&column[*a as usize], &column[*b as usize]);
                    match (x.is_none(), y.is_none()) {
                        (true, true) => Ordering::Equal,
                        (true, false) => Ordering::Less,
                        (false, true) => Ordering::Greater,
                        _ => self.compare("<", y, x).unwrap_or_else(|_| {
                            failed_on = Some(());
                            Ordering::Equal
                        }),
                    }
                });
                self.zones.get_mut(z).copy_from_slice(&cards);
                if failed_on.is_some() {
                    return failed("sort: the values cannot be put in order");
                }
                self.reordered(z);
                self.zone_changed(z);
                V::None
            }
            Op::KeyOf => {
                let z = self.value_of(g, arg(0)?, env)?;
                self.key_of(g, &z)?
            }
            Op::Reverse => {
                let z = self.zone_arg(g, arg(0)?, env)?;
                self.zones.get_mut(z).reverse();
                self.zone_changed(z);
                V::None
            }
            Op::Players => V::List((0..n).map(V::Int).collect()),
            Op::NumPlayers => V::Int(n),
            Op::SeatNumber => self.value_of(g, arg(0)?, env)?,
            Op::PlayersFrom => {
                let p = self.seat_arg(g, arg(0)?, env, "%=")?.rem_euclid(n);
                V::list((p..n).chain(0..p).map(V::Int).collect())
            }
            Op::LeftOf => V::Int((self.seat_arg(g, arg(0)?, env, "+")? + 1).rem_euclid(n)),
            Op::RightOf => V::Int((self.seat_arg(g, arg(0)?, env, "-")? - 1).rem_euclid(n)),
            Op::Opponents | Op::Teammates => {
                let who = self.value_of(g, arg(0)?, env)?;
                if op == Op::Teammates && who.is_none() {
                    return Ok(V::list(vec![])); // nobody's team: nobody
                }
                let p = ints("+", &who, &V::Int(0))?.0;
                let team = self.team(p);
                if op == Op::Teammates {
                    V::list(
                        team.iter()
                            .filter(|&&q| i64::from(q) != p)
                            .map(|&q| V::Int(i64::from(q)))
                            .collect(),
                    )
                } else {
                    V::list(
                        (1..n)
                            .map(|i| (p + i).rem_euclid(n))
                            .filter(|q| !team.contains(&(*q as u32)))
                            .map(V::Int)
                            .collect(),
                    )
                }
            }
            Op::Range => {
                let a = self.value_of(g, arg(0)?, env)?;
                let b = match args.get(1) {
                    Some(&b) => self.value_of(g, b, env)?,
                    None => V::None,
                };
                let (start, stop) = if b.is_none() { (V::Int(0), a) } else { (a, b) }; // range(a, none): range(a)
                let (stop, start) = ints("-", &stop, &start)?; // the reference's `stop - start` fails first
                if stop.saturating_sub(start) > MAX_SIZE as i64 {
                    return rule(format!(
                        "range({start}, {stop}) is over the size budget of 100,000 items"
                    ));
                }
                V::list((start..stop).map(V::Int).collect())
            }
            Op::Any | Op::All => {
                let l = self.value_of(g, arg(0)?, env)?;
                let items = list(&l, "any")?;
                let want = op == Op::Any;
                V::Bool(if want {
                    items.iter().any(|x| self.truthy(x))
                } else {
                    items.iter().all(|x| self.truthy(x))
                })
            }
            Op::Sum => {
                let l = self.value_of(g, arg(0)?, env)?;
                let mut total = 0i128; // 100,000 items of 64 bits cannot overflow it: only the sum is checked
                for x in list(&l, "sum")?.iter() {
                    let (_, x) = ints("+", &V::Int(0), x)?; // Python's sum adds to a number
                    total += i128::from(x);
                }
                checked(i64::try_from(total).ok())?
            }
            Op::Max | Op::Min => {
                let l = self.value_of(g, arg(0)?, env)?;
                let items = list(&l, "max")?;
                let mut best: Option<V> = None;
                for x in items.iter() {
                    best = Some(match best {
                        None => x.clone(),
                        Some(b) => {
                            let o = self.compare(if op == Op::Max { ">" } else { "<" }, x, &b)?;
                            let better = if op == Op::Max {
                                o == Ordering::Greater
                            } else {
                                o == Ordering::Less
                            };
                            if better {
                                x.clone()
                            } else {
                                b
                            }
                        }
                    });
                }
                best.unwrap_or(V::Int(0))
            }
            Op::First | Op::Last => {
                let l = self.value_of(g, arg(0)?, env)?;
                if l.is_none() {
                    return Ok(V::None); // the reference's `items[0] if items else None`
                }
                let items = list(&l, "first")?;
                let x = if op == Op::First { items.first() } else { items.last() };
                x.cloned().unwrap_or(V::None)
            }
            Op::Item => {
                let [l, i] = self.values(g, args, env)?;
                let i = match i {
                    V::Int(i) => i,
                    V::Bool(b) => i64::from(b),
                    other => return failed(format!("'<=' cannot compare a number and {}", py_kind(&other))),
                };
                if i < 0 {
                    return Ok(V::None); // the reference's `0 <= index < len(items)` stops before the length
                }
                let V::List(items) = &l else {
                    return failed(format!("{} has no length", py_kind(&l)));
                };
                if (i as usize) < items.len() {
                    items[i as usize].clone()
                } else {
                    V::None
                }
            }
            Op::IndexOf => {
                let [l, x] = self.values(g, args, env)?;
                V::Int(
                    list(&l, "index_of")?
                        .iter()
                        .position(|i| i.same(&x))
                        .map_or(-1, |p| p as i64),
                )
            }
            Op::Distinct => {
                let l = self.value_of(g, arg(0)?, env)?;
                let mut out: Vec<V> = vec![];
                for x in list(&l, "distinct")?.iter() {
                    if !out.iter().any(|o| o.same(x)) {
                        out.push(x.clone());
                    }
                }
                V::list(out)
            }
            Op::Get | Op::WithKey | Op::WithoutKey | Op::Keys | Op::Values => self.map_op(g, op, args, env)?,
            Op::Text | Op::Number | Op::Word | Op::Sorted => self.text_op(g, op, args, env)?,
            Op::Kinds => {
                let l = self.value_of(g, arg(0)?, env)?;
                self.kinds(list(&l, "kinds")?)?
            }
            Op::CardOf => {
                let [l, id] = self.values(g, args, env)?;
                self.card_of(list(&l, "card_of")?, &id)?
            }
            Op::Roll => {
                let l = self.value_of(g, arg(0)?, env)?;
                self.roll(list(&l, "roll")?)?;
                V::None
            }
            Op::Face => {
                self.unwatched()?;
                let d = self.value_of(g, arg(0)?, env)?;
                self.face(&d)?
            }
            Op::Faces => {
                self.unwatched()?;
                let l = self.value_of(g, arg(0)?, env)?;
                self.faces_of(list(&l, "faces")?)?
            }
            Op::Showing => {
                self.unwatched()?;
                let [l, face] = self.values(g, args, env)?;
                self.showing(list(&l, "showing")?, &face)?
            }
            Op::Flatten => {
                let l = self.value_of(g, arg(0)?, env)?;
                let mut out = vec![];
                for inner in list(&l, "flatten")?.iter() {
                    out.extend(list(inner, "flatten")?.iter().cloned());
                    if out.len() > MAX_SIZE {
                        return bounded(out);
                    }
                }
                V::list(out)
            }
            Op::CyclicNext | Op::CyclicPrev | Op::Around => {
                let [l, x, before, after] = if op == Op::Around {
                    self.values(g, args, env)?
                } else {
                    let [l, x] = self.values(g, args, env)?;
                    [l, x, V::None, V::None]
                };
                let ring = list(&l, "cyclic_next")?;
                let what = match op {
                    Op::CyclicNext => "cyclic_next",
                    Op::CyclicPrev => "cyclic_prev",
                    _ => "around",
                };
                let Some(i) = ring.iter().position(|r| r.same(&x)) else {
                    return rule(format!("{what}: {} is not in the list", self.quoted(&x)));
                };
                let len = ring.len() as i64;
                match op {
                    Op::CyclicNext => ring[((i as i64 + 1).rem_euclid(len)) as usize].clone(),
                    Op::CyclicPrev => ring[((i as i64 - 1).rem_euclid(len)) as usize].clone(),
                    _ => {
                        // the reference's `range(-before, min(after, n - before))`, and its faults; in 128 bits,
                        // as Python's numbers have no bound (the range has at most n steps)
                        let start = i128::from(negated(&before)?);
                        if !matches!(after, V::Int(_) | V::Bool(_)) {
                            return failed(format!("'<' cannot compare a number and {}", py_kind(&after)));
                        }
                        let (len, after) = (i128::from(len), i128::from(int(&after, "around")?));
                        let mut out: Vec<V> = vec![];
                        for k in start..after.min(len + start) {
                            let x = &ring[(i as i128 + k).rem_euclid(len) as usize];
                            if !out.iter().any(|o| o.same(x)) {
                                out.push(x.clone());
                            }
                        }
                        V::list(out)
                    }
                }
            }
            Op::Show => {
                let [l, p] = self.values(g, args, env)?;
                if p.is_none() {
                    return rule("show: no player to show the cards to");
                }
                let p = self.seat(&p)?;
                let mut cards = vec![];
                let mut shown = vec![];
                for c in list(&l, "show")?.iter() {
                    let c = self.card(c, "show")?;
                    let zone = self.game.text(self.seats().zones[self.loc[c] as usize]).to_string();
                    shown.push(serde_json::json!([zone, self.game.text(self.game.cards[c])]));
                    cards.push(c);
                }
                let turn = self.turns;
                self.seen[p].push(serde_json::json!({"turn": turn, "cards": shown}));
                self.shown(&cards, p);
                V::None
            }
            Op::Reveal => {
                let l = self.value_of(g, arg(0)?, env)?;
                let mut cards = vec![];
                for c in list(&l, "reveal")?.iter() {
                    if !c.is_none() {
                        cards.push(self.card(c, "reveal")?);
                    }
                }
                for seat in 0..self.n {
                    self.shown(&cards, seat);
                }
                V::None
            }
            Op::RandomFrom => {
                self.unwatched()?;
                let l = self.value_of(g, arg(0)?, env)?;
                let items = match l {
                    V::None | V::Unset => return Ok(V::None), // `not items`: none draws nothing, as []
                    _ => list(&l, "random_from")?,
                };
                if items.is_empty() {
                    V::None
                } else {
                    let of = items.len() as u64;
                    let i = self.draw("random", of)?;
                    self.happened(Hist::Random { of, index: i });
                    items[i as usize].clone()
                }
            }
            Op::Score | Op::TeamScore => {
                self.unwatched()?;
                self.pool.enter()?;
                let points = self.points_of(g, op, arg(0)?, env);
                self.pool.leave();
                points?
            }
        })
    }

    /// `score(who)` or `team_score(who)`.
    fn points_of(&mut self, g: &Game, op: Op, who: Node, env: &mut [V]) -> Res<V> {
        let scored = |e| {
            Box::new(match e {
                Error::Rule(d) => F::Scoring(Box::new(d)),
                other => F::Bug(format!("the scoring: {other:?}")),
            })
        };
        let who = self.value_of(g, who, env)?;
        if who.is_none() {
            return self.score_of_nobody().map(V::Int).map_err(scored); // nobody's team is nobody
        }
        let p = ints("+", &who, &V::Int(0))?.0;
        let p = self.seat(&V::Int(p))?;
        // the seat alone, or its team's members read one at a time (the scoring may not change the teams)
        let count = if op == Op::Score {
            1
        } else {
            self.seats().teams[p].len()
        };
        let mut total = 0i64;
        for k in 0..count {
            let m = if op == Op::Score {
                p
            } else {
                self.seats().teams[p][k] as usize
            };
            let points = self.score_of(m).map_err(scored)?;
            total = match total.checked_add(points) {
                Some(t) if t != i64::MIN => t,
                _ => return rule(PAST),
            };
        }
        Ok(V::Int(total))
    }

    /// A value as the reference's messages quote it.
    /// A value as the reference's messages quote it (errors.py's `quoted`: Python's repr, cut at 60).
    pub(crate) fn quoted(&self, v: &V) -> String {
        let text = match v {
            V::Str(_) | V::Text(_) => py_repr(&self.text_of(v).chars().take(60).collect::<String>()),
            V::List(l) if l.len() > 60 => self.repr(&V::list(l[..60].to_vec())),
            other => self.repr(other),
        };
        if text.chars().count() <= 60 {
            text
        } else {
            text.chars().take(59).collect::<String>() + "…"
        }
    }

    fn team(&self, p: i64) -> Vec<u32> {
        if p >= 0 && (p as usize) < self.n {
            self.seats().teams[p as usize].clone()
        } else {
            vec![p as u32]
        }
    }

    /// Fewest steps from `start` to a space of `targets`, passing only `through` spaces (0: start is one; -1: none).
    fn path_length(&self, table: u16, board: u32, start: &V, targets: &[V], through: &[V]) -> Res<V> {
        let neighbours = &self.game.tables[table as usize];
        let start = match start {
            V::Str(s) if neighbours.contains([board, *s, NO_PART, NO_PART]) => s,
            other => return self.no_space(&self.game, board, other), // the reference checks the start only
        };
        let id = |v: &V| match v {
            V::Str(s) => Some(*s),
            _ => None,
        };
        let goal: Vec<u32> = targets.iter().filter_map(id).collect();
        let open: Vec<u32> = through.iter().filter_map(id).collect();
        if goal.contains(start) {
            return Ok(V::Int(0));
        }
        let (mut frontier, mut seen, mut steps) = (vec![*start], vec![*start], 0);
        while !frontier.is_empty() {
            steps += 1;
            let mut next = vec![];
            for s in &frontier {
                if let Some(V::List(adjacent)) = neighbours.get([board, *s, NO_PART, NO_PART]) {
                    for n in adjacent.iter().filter_map(id) {
                        if seen.contains(&n) {
                            continue;
                        }
                        if goal.contains(&n) {
                            return Ok(V::Int(steps));
                        }
                        seen.push(n);
                        if open.contains(&n) {
                            next.push(n);
                        }
                    }
                }
            }
            frontier = next;
        }
        Ok(V::Int(-1))
    }

    /// Whether some stone of `through` joins a space of `sources` to one of `targets` (board neighbours). As
    /// the reference, `sources` is read only where a target lies in `through`: else the answer is no, whatever
    /// `sources` is.
    fn connected(&self, table: u16, board: u32, sources: &V, targets: &[V], through: &[V]) -> Res<V> {
        let neighbours = &self.game.tables[table as usize];
        let id = |v: &V| match v {
            V::Str(s) => Some(*s),
            _ => None,
        };
        let through: Vec<u32> = through.iter().filter_map(id).collect();
        let targets: Vec<u32> = targets.iter().filter_map(id).filter(|t| through.contains(t)).collect();
        if targets.is_empty() {
            return Ok(V::Bool(false));
        }
        let sources = list(sources, "connected")?;
        let mut seen: Vec<u32> = sources.iter().filter_map(id).filter(|s| through.contains(s)).collect();
        let mut todo = seen.clone();
        while let Some(s) = todo.pop() {
            if targets.contains(&s) {
                return Ok(V::Bool(true));
            }
            if let Some(V::List(next)) = neighbours.get([board, s, NO_PART, NO_PART]) {
                for x in next.iter() {
                    if let V::Str(t) = x {
                        if through.contains(t) && !seen.contains(t) {
                            seen.push(*t);
                            todo.push(*t);
                        }
                    }
                }
            }
        }
        Ok(V::Bool(false))
    }

    /// `line`, `group` and `liberties` as the reference's board (boards/graphs.py) computes them, in its order.
    fn walk(&self, how: Walk, neighbours: u16, steps: u16, board: u32, args: &[V]) -> Res<V> {
        let (neighbours, steps) = (
            &self.game.tables[neighbours as usize],
            &self.game.tables[steps as usize],
        );
        let id = |v: &V| match v {
            V::Str(s) => Some(*s),
            _ => None,
        };
        let ids = |v: &V, what: &str| -> Res<Vec<u32>> { Ok(list(v, what)?.iter().filter_map(id).collect()) };
        let next_to = |s: u32| match neighbours.get([board, s, NO_PART, NO_PART]) {
            Some(V::List(adjacent)) => adjacent.iter().filter_map(id).collect(),
            _ => vec![],
        };
        let on_board = |v: &V| match v {
            V::Str(s) if neighbours.contains([board, *s, NO_PART, NO_PART]) => Ok(*s),
            other => self.no_space(&self.game, board, other),
        };
        let out: Vec<u32> = match how {
            Walk::Line => {
                let (start, open) = (on_board(&args[0])?, ids(&args[2], "line")?);
                let direction = id(&args[1]);
                let step = |s: u32| match direction.and_then(|d| steps.get([board, s, d, NO_PART])) {
                    Some(V::Str(n)) => Some(n),
                    _ => None,
                };
                let mut out = vec![];
                let mut next = step(start);
                while let Some(n) = next.filter(|n| open.contains(n) && !out.contains(n)) {
                    out.push(n);
                    next = step(n);
                }
                out
            }
            Walk::Group => {
                let (start, open) = (on_board(&args[0])?, ids(&args[1], "group")?);
                if !open.contains(&start) {
                    return Ok(V::list(vec![]));
                }
                let (mut found, mut frontier) = (vec![start], vec![start]);
                while let Some(s) = frontier.pop() {
                    for n in next_to(s) {
                        if open.contains(&n) && !found.contains(&n) {
                            found.push(n);
                            frontier.push(n);
                        }
                    }
                }
                found
            }
            Walk::Liberties => {
                let near: Vec<u32> = ids(&args[0], "liberties")?.into_iter().flat_map(next_to).collect();
                list(&args[1], "liberties")?
                    .iter()
                    .filter_map(id)
                    .filter(|s| near.contains(s))
                    .collect()
            }
        };
        bounded(out.into_iter().map(V::Str).collect())
    }
}
