//! Expressions compiled once, as the game is loaded, into closures: each node's form goes straight to the code
//! of its kind (no `match` over every kind of node at each evaluation, no large frame set up for it), and the
//! shapes the rules repeat most are specialised to what their parts are known to be.
//!
//! A form gives the same value and the same fault as eval.rs's generic code would for its node: where a
//! specialised form meets values it was not made for, it hands them to that generic code.

use crate::game::{memo_reads, Bin, Expr, Family, FxMap, Game, Node, Op};
use crate::state::{rule, Res, State};
use crate::table::NO_PART;
use crate::value::V;

/// The code of one node: the state, the game and the frame's locals in, the node's value out.
pub type Form = Box<dyn Fn(&mut State, &Game, &mut [V]) -> Res<V>>;

/// The code of a node read as a condition: whether its value is true, without making that value where it
/// need not be made (a comparison's yes/no, `and`, `or` and `not` of conditions).
pub type Test = Box<dyn Fn(&mut State, &Game, &mut [V]) -> Res<bool>>;

/// One form and one test per node of the game (`Game::nodes`), by node index.
pub struct Code {
    forms: Vec<Form>,
    tests: Vec<Test>,
}

impl Code {
    pub fn new(nodes: &[Expr], families: &FxMap<u32, Family>) -> Code {
        Code {
            forms: (0..nodes.len()).map(|n| form(nodes, families, n as Node)).collect(),
            tests: (0..nodes.len()).map(|n| test(nodes, n as Node)).collect(),
        }
    }

    #[inline(always)]
    pub fn get(&self, n: Node) -> &Form {
        &self.forms[n as usize]
    }

    #[inline(always)]
    pub fn test(&self, n: Node) -> &Test {
        &self.tests[n as usize]
    }
}

/// Runs node `n`'s form (a child's, from its parent's form).
#[inline(always)]
fn run(st: &mut State, g: &Game, n: Node, env: &mut [V]) -> Res<V> {
    st.value_of(g, n, env)
}

/// Runs node `n`'s test.
#[inline(always)]
fn truth(st: &mut State, g: &Game, n: Node, env: &mut [V]) -> Res<bool> {
    st.truth(g, n, env)
}

fn test(nodes: &[Expr], n: Node) -> Test {
    match nodes[n as usize] {
        Expr::Bin(Bin::And, a, b) => Box::new(move |st, g, env| Ok(truth(st, g, a, env)? && truth(st, g, b, env)?)),
        Expr::Bin(Bin::Or, a, b) => Box::new(move |st, g, env| Ok(truth(st, g, a, env)? || truth(st, g, b, env)?)),
        Expr::Not(e) => Box::new(move |st, g, env| Ok(!truth(st, g, e, env)?)),
        Expr::Bin(op, a, b) if compares(op) => comparison(nodes, op, a, b),
        _ => Box::new(move |st, g, env| {
            let v = run(st, g, n, env)?;
            Ok(st.truthy(&v))
        }),
    }
}

/// Whether `op` gives yes or no (a comparison or `in`).
fn compares(op: Bin) -> bool {
    matches!(
        op,
        Bin::Eq | Bin::Ne | Bin::Lt | Bin::Le | Bin::Gt | Bin::Ge | Bin::In | Bin::NotIn
    )
}

/// `a op b` for a comparison: operands read in place are compared without copies, and a number or a text
/// written in the rules without making the literal a value again; otherwise the left is evaluated before the
/// right, as written.
fn comparison(nodes: &[Expr], op: Bin, a: Node, b: Node) -> Test {
    let (left, right) = (place(nodes, a), place(nodes, b));
    match nodes[b as usize] {
        Expr::Lit(V::Str(s)) if matches!(op, Bin::Eq | Bin::Ne) => Box::new(move |st, g, env| {
            // a text of the table equals only itself (`V::same`)
            let same = match peek(left, a, st, g, env) {
                Some(x) => matches!(x, V::Str(t) if *t == s),
                None => matches!(run(st, g, a, env)?, V::Str(t) if t == s),
            };
            Ok(same == (op == Bin::Eq))
        }),
        Expr::Lit(V::Int(k)) if !matches!(op, Bin::In | Bin::NotIn) => Box::new(move |st, g, env| {
            let x = match peek(left, a, st, g, env) {
                Some(&V::Int(i)) => i,
                Some(x) => return st.holds(op, x, &V::Int(k)),
                None => match run(st, g, a, env)? {
                    V::Int(i) => i,
                    x => return st.holds(op, &x, &V::Int(k)),
                },
            };
            Ok(match op {
                Bin::Eq => x == k,
                Bin::Ne => x != k,
                Bin::Lt => x < k,
                Bin::Le => x <= k,
                Bin::Gt => x > k,
                _ => x >= k,
            })
        }),
        _ => Box::new(move |st, g, env| {
            if let Some(x) = peek(left, a, st, g, env) {
                if let Some(y) = peek(right, b, st, g, env) {
                    return st.holds(op, x, y);
                }
            }
            let x = run(st, g, a, env)?;
            if let Some(y) = peek(right, b, st, g, env) {
                return st.holds(op, &x, y);
            }
            let y = run(st, g, b, env)?;
            st.holds(op, &x, &y)
        }),
    }
}

fn form(nodes: &[Expr], families: &FxMap<u32, Family>, n: Node) -> Form {
    match &nodes[n as usize] {
        Expr::Lit(v) => {
            let v = v.clone();
            Box::new(move |_, _, _| Ok(v.clone()))
        }
        &Expr::Local(slot, false) => Box::new(move |st, g, env| match &env[slot as usize] {
            V::Unset => st.eval_node(g, n, env),
            v => Ok(v.clone()),
        }),
        &Expr::Var(i) => Box::new(move |st, _, _| Ok(st.vars[i as usize].clone())),
        Expr::Inline(body, passed) => {
            let body = *body;
            if passed.is_empty() {
                return Box::new(move |st, g, env| run(st, g, body, env));
            }
            let passed = passed.clone();
            Box::new(move |st, g, env| {
                if let Some(&slot) = passed.iter().find(|&&s| matches!(env[s as usize], V::Unset)) {
                    return rule(format!("'{}' has no value yet", st.local_name(slot)));
                }
                run(st, g, body, env)
            })
        }
        &Expr::Memo(slot, e) => {
            let kept_by = memo_reads(nodes, e);
            Box::new(move |st, g, env| {
                if !matches!(env[slot as usize], V::Unset) {
                    return Ok(env[slot as usize].clone());
                }
                // while a bot rates its options, by the locals it reads, as another option's rating left it
                let key = match &kept_by {
                    Some(reads) if st.memo.on => memo_key(n, reads, env),
                    _ => None,
                };
                if let Some(v) = key.and_then(|k| st.memo.kept.get(&k)) {
                    env[slot as usize] = v.clone();
                    return Ok(v.clone());
                }
                let v = run(st, g, e, env)?;
                env[slot as usize] = v.clone();
                if let Some(k) = key {
                    st.memo.kept.insert(k, v.clone());
                }
                Ok(v)
            })
        }
        &Expr::ZoneLen(z, empty) => Box::new(move |st, g, env| {
            let zone = run(st, g, z, env)?;
            let len = st.zones[st.zone_index(&zone)?].len();
            Ok(if empty { V::Bool(len == 0) } else { V::Int(len as i64) })
        }),
        &Expr::Not(e) => Box::new(move |st, g, env| Ok(V::Bool(!truth(st, g, e, env)?))),
        &Expr::Cond(c, then, other) => Box::new(move |st, g, env| {
            let next = if truth(st, g, c, env)? { then } else { other };
            run(st, g, next, env)
        }),
        Expr::Record(fields) => {
            let fields = fields.clone();
            Box::new(move |st, g, env| {
                // its values made in a reused buffer, then moved beside their names into the record's allocation
                let mut values = st.pool.list();
                for &(_, e) in &fields {
                    match run(st, g, e, env) {
                        Ok(v) => values.push(v),
                        Err(f) => {
                            st.pool.unused(values);
                            return Err(f);
                        }
                    }
                }
                let record = fields.iter().map(|&(name, _)| name).zip(values.drain(..)).collect();
                st.pool.unused(values);
                Ok(V::Rec(record))
            })
        }
        &Expr::Bin(op, a, b) => binary(nodes, op, a, b),
        Expr::Field(..) | Expr::Attr(..) | Expr::PVar(..) => match place(nodes, n) {
            // read in place where it can be; a value it cannot be read of goes to the generic code, which faults
            Some(at) => Box::new(move |st, g, env| match at.read(st, g, env) {
                Some(v) => Ok(v.clone()),
                None => st.eval_node(g, n, env),
            }),
            None => match nodes[n as usize] {
                // a card's attribute of a card worked out (`top(z).kind`): no attempt to read it in place first
                Expr::Attr(obj, i) => Box::new(move |st, g, env| {
                    let c = run(st, g, obj, env)?;
                    st.attr_of(g, i, &c)
                }),
                _ => Box::new(move |st, g, env| st.eval_node(g, n, env)),
            },
        },
        Expr::Op(Op::KeyOf, args) if matches!(nodes[args[0] as usize], Expr::Op(Op::ZoneOf, _)) => {
            let Expr::Op(_, inner) = &nodes[args[0] as usize] else {
                unreachable!("matched above")
            };
            let card = inner[0];
            let at = place(nodes, card);
            Box::new(move |st, g, env| {
                // a card read in place (a local, a field), else worked out
                if let Some(c) = at.and_then(|at| at.read(st, g, env)) {
                    return st.place_key(g, c);
                }
                let c = run(st, g, card, env)?;
                let key = st.place_key(g, &c);
                c.discard();
                key
            })
        }
        Expr::Op(op, args) => {
            let (op, args) = (*op, args.clone());
            Box::new(move |st, g, env| st.op(g, op, &args, env))
        }
        Expr::Fn(f, args) => {
            let (f, args) = (*f, args.clone());
            Box::new(move |st, g, env| st.call(g, f, &args, env))
        }
        &Expr::Member(fam, key) => match families.get(&fam) {
            // a seat's zone of the family, read by the seat's number; any other key as eval.rs reads it
            Some(Family::Player(zones)) => {
                let zones = zones.clone();
                Box::new(move |st, g, env| match run(st, g, key, env)? {
                    V::Int(p) if p >= 0 && (p as usize) < zones.len() => Ok(V::Str(zones[p as usize])),
                    k => st.member_of(g, fam, &k),
                })
            }
            // a zone of a family by its key's text, looked up in the family's own map
            Some(Family::Text(zones)) => {
                let zones = zones.clone();
                Box::new(move |st, g, env| {
                    let k = run(st, g, key, env)?;
                    match &k {
                        V::Str(s) => match zones.get(s) {
                            Some(&z) => Ok(V::Str(z)),
                            None => st.member_of(g, fam, &k),
                        },
                        _ => st.member_of(g, fam, &k),
                    }
                })
            }
            None => Box::new(move |st, g, env| {
                let k = run(st, g, key, env)?;
                st.member_of(g, fam, &k)
            }),
        },
        Expr::Table(t, board, args) => {
            let (t, board, args) = (*t, *board, args.clone());
            let parts: Vec<(Node, Option<Place>)> = args.iter().map(|&a| (a, place(nodes, a))).collect();
            if let Expr::Lit(V::Str(named)) = nodes[board as usize] {
                // a board written in the rules
                return Box::new(move |st, g, env| table_entry(st, g, t, named, &parts, env));
            }
            // a board read in place (a variable, a local) or worked out; as the reference, a board that is
            // none faults once the other arguments are worked out
            let at = place(nodes, board);
            Box::new(move |st, g, env| {
                let first = match at.and_then(|at| at.read(st, g, env)) {
                    Some(&V::Str(b)) => b,
                    Some(_) => return st.no_board(g, &args, env),
                    None => match run(st, g, board, env)? {
                        V::Str(b) => b,
                        _ => return st.no_board(g, &args, env),
                    },
                };
                table_entry(st, g, t, first, &parts, env)
            })
        }
        &Expr::Keyed { how, it, source, key } => Box::new(move |st, g, env| st.keyed(g, how, it, source, key, env)),
        _ => Box::new(move |st, g, env| st.eval_node(g, n, env)),
    }
}

/// The entry of table `t` on board `board` under the spaces `parts`, each read at its place where it has one.
#[inline(always)]
fn table_entry(st: &mut State, g: &Game, t: u16, board: u32, parts: &[(Node, Option<Place>)], env: &mut [V]) -> Res<V> {
    let mut key = [board, NO_PART, NO_PART, NO_PART];
    let mut odd: crate::eval::Odd = Default::default();
    for (i, &(a, at)) in parts.iter().enumerate() {
        key[i + 1] = match peek(at, a, st, g, env) {
            Some(V::Str(s)) => *s,
            _ => st.space(g, a, env, &mut odd[i])?,
        };
    }
    st.entry(g, t, key, &odd)
}

/// Where a value is read in place, without a copy: a local or a variable, or a field, a card's attribute or a
/// seat's player variable of one (eval.rs's `peek` of these shapes, its shape resolved at load).
#[derive(Clone, Copy)]
struct Place(Base, Access);

#[derive(Clone, Copy)]
enum Base {
    Local(u16),
    Var(u16),
}

#[derive(Clone, Copy)]
enum Access {
    Whole,
    Field(u32),
    Attr(u16),
    PVar(u16),
}

fn place(nodes: &[Expr], n: Node) -> Option<Place> {
    let base = |m: Node| match nodes[m as usize] {
        Expr::Local(slot, false) => Some(Base::Local(slot)),
        Expr::Var(i) => Some(Base::Var(i)),
        _ => None,
    };
    match nodes[n as usize] {
        Expr::Field(obj, name) => Some(Place(base(obj)?, Access::Field(name))),
        Expr::Attr(obj, i) => Some(Place(base(obj)?, Access::Attr(i))),
        Expr::PVar(obj, i) => Some(Place(base(obj)?, Access::PVar(i))),
        _ => Some(Place(base(n)?, Access::Whole)),
    }
}

impl Place {
    /// The value, as `peek` reads it; None where reading it would fail (a local with no value yet, a field of
    /// none, an attribute of what is no card, …): the generic code evaluates it and faults.
    #[inline(always)]
    fn read<'a>(self, st: &'a State, g: &'a Game, env: &'a [V]) -> Option<&'a V> {
        let v = match self.0 {
            Base::Local(slot) => match &env[slot as usize] {
                V::Unset => return None,
                v => v,
            },
            Base::Var(i) => &st.vars[i as usize],
        };
        match self.1 {
            Access::Whole => Some(v),
            Access::Field(name) => match v {
                V::None | V::Unset => None,
                r => Some(r.field(name).unwrap_or(&g.none)),
            },
            Access::Attr(i) => match v {
                &V::Int(c) if c >= 0 && (c as usize) < st.loc.len() => Some(&g.attrs[i as usize][c as usize]),
                _ => None,
            },
            Access::PVar(i) => match v {
                &V::Int(p) if p >= 0 && (p as usize) < st.n => Some(&st.pvars[p as usize][i as usize]),
                _ => None,
            },
        }
    }
}

/// Operand `n` in place: at its place where it has one, else as eval.rs peeks it.
#[inline(always)]
fn peek<'a>(at: Option<Place>, n: Node, st: &'a State, g: &'a Game, env: &'a [V]) -> Option<&'a V> {
    match at {
        Some(at) => at.read(st, g, env),
        None => st.peek_at(g, n, env),
    }
}

/// `a op b`: `and`/`or` read their right only when needed, a comparison is its test's yes or no, and other
/// operands read in place are combined without copies.
fn binary(nodes: &[Expr], op: Bin, a: Node, b: Node) -> Form {
    let left = place(nodes, a);
    match op {
        Bin::And | Bin::Or => Box::new(move |st, g, env| {
            let x = run(st, g, a, env)?;
            if st.truthy(&x) == (op == Bin::And) {
                run(st, g, b, env)
            } else {
                Ok(x)
            }
        }),
        _ if compares(op) => {
            let holds = comparison(nodes, op, a, b);
            Box::new(move |st, g, env| Ok(V::Bool(holds(st, g, env)?)))
        }
        _ => match place(nodes, b) {
            Some(right) => Box::new(move |st, g, env| {
                if let (Some(x), Some(y)) = (peek(left, a, st, g, env), right.read(st, g, env)) {
                    return st.combine(op, x, y);
                }
                st.binary(g, op, a, b, env)
            }),
            None => Box::new(move |st, g, env| st.binary(g, op, a, b, env)),
        },
    }
}

/// A repeated expression's value as a rating keeps it (`state::Memo`): its node, and the kind and value of each
/// local it reads.
pub type MemoKey = (Node, [(u8, i64); 2]);

/// The key of node `n`, which reads the locals `reads`; None where one holds what is not a plain value (a list,
/// a record, a text made while playing, or nothing yet).
#[inline(always)]
fn memo_key(n: Node, reads: &[u16], env: &[V]) -> Option<MemoKey> {
    let mut key = [(0, 0); 2];
    for (k, &slot) in key.iter_mut().zip(reads) {
        *k = match env[slot as usize] {
            V::Int(x) => (1, x),
            V::Str(s) => (2, i64::from(s)),
            V::Bool(b) => (3, i64::from(b)),
            V::None => (4, 0),
            _ => return None,
        };
    }
    Some((n, key))
}
