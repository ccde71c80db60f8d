//! The IR (JSON made by engine/runtime/lower.py) read and verified into a frozen game: every name resolved to an
//! index, every index checked, so the running VM never looks a name up and never indexes out of range.

use crate::shared::{Shared, SharedStr};
use crate::table::{Table, NO_PART};
use crate::value::V;
use serde_json::Value as J;
use std::collections::HashMap;
use std::rc::Rc;

pub const IR_VERSION: i64 = 7;

pub type Node = u32;

/// The ids of one choice's options: each option's id, made once, and the options last asked of each seat with
/// their ids (a seat is asked much the same options turn after turn: those are found by position, not hashed).
#[derive(Default)]
pub struct OptionIds {
    pub known: FxMap<crate::value::Exact, Rc<str>>,
    /// The one id of each text made (a text of the game's table is its own): ids alike are one, compared by
    /// their addresses.
    pub texts: FxSet<Rc<str>>,
    pub last: Vec<Asked>,
}

/// Options asked of a seat, their ids, and whether two ids are alike.
#[derive(Default)]
pub struct Asked {
    pub items: Shared<V>,
    pub ids: Rc<[Rc<str>]>,
    pub duplicates: bool,
}

/// Whose points a change of a player variable may change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Readers {
    Nobody,
    /// The player's own: the scoring reads the variable only of the seat it works out the points of.
    Owner,
    Everyone,
}

/// A fast hasher for small integer keys (the tables' ids): FxHash's multiply-rotate, not SipHash (its
/// protection against chosen keys is not needed for keys the IR fixed at load).
#[derive(Default, Clone, Copy)]
pub struct Fx(u64);

impl std::hash::Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Eight bytes a step (a text's hash is most of a look-up of it by its characters).
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(c);
            self.write_u64(u64::from_le_bytes(word));
        }
        let mut rest = [0u8; 8];
        rest[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        self.write_u64(u64::from_le_bytes(rest) ^ ((bytes.len() as u64) << 56));
    }

    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

pub type FxMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<Fx>>;
pub type FxSet<K> = std::collections::HashSet<K, std::hash::BuildHasherDefault<Fx>>;

/// A board table's answer where it holds no entry (lower.py's `_missed`): the arguments that must be spaces
/// of the board, in the order the reference checks them, and its answer once they are (None: a fault, in the
/// reference's words `fault` where it fails whatever the arguments).
#[derive(Debug, Default)]
pub struct Miss {
    pub checks: Vec<usize>,
    pub default: Option<V>,
    pub fault: Option<String>,
    /// (argument, text): an argument the table has no row of is read as this text (a tag the board lacks as
    /// the tag no space has).
    pub stand_in: Option<(usize, u32)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bin {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    In,
    NotIn,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Top,
    Bottom,
    Size,
    IsEmpty,
    Cards,
    ZoneOf,
    Move,
    MoveBottom,
    MoveAll,
    Shuffle,
    Reverse,
    Players,
    NumPlayers,
    SeatNumber,
    PlayersFrom,
    LeftOf,
    RightOf,
    Opponents,
    Teammates,
    Range,
    Any,
    All,
    Sum,
    Max,
    Min,
    First,
    Last,
    Item,
    IndexOf,
    Distinct,
    Reveal,
    RandomFrom,
    Score,
    TeamScore,
    TopCards,
    Flatten,
    CyclicNext,
    CyclicPrev,
    Around,
    Show,
    Sort,
    KeyOf,
    Kinds,
    CardOf,
    Roll,
    Face,
    Faces,
    Showing,
    Get,
    WithKey,
    WithoutKey,
    Keys,
    Values,
    Text,
    Number,
    Word,
    Sorted,
}

const OPS: &[(&str, Op)] = &[
    ("top", Op::Top),
    ("bottom", Op::Bottom),
    ("size", Op::Size),
    ("count", Op::Size),
    ("is_empty", Op::IsEmpty),
    ("cards", Op::Cards),
    ("zone_of", Op::ZoneOf),
    ("move", Op::Move),
    ("move_bottom", Op::MoveBottom),
    ("move_all", Op::MoveAll),
    ("shuffle", Op::Shuffle),
    ("reverse", Op::Reverse),
    ("players", Op::Players),
    ("num_players", Op::NumPlayers),
    ("seat_number", Op::SeatNumber),
    ("players_from", Op::PlayersFrom),
    ("left_of", Op::LeftOf),
    ("right_of", Op::RightOf),
    ("opponents", Op::Opponents),
    ("teammates", Op::Teammates),
    ("range", Op::Range),
    ("any", Op::Any),
    ("all", Op::All),
    ("sum", Op::Sum),
    ("max", Op::Max),
    ("min", Op::Min),
    ("first", Op::First),
    ("last", Op::Last),
    ("item", Op::Item),
    ("index_of", Op::IndexOf),
    ("distinct", Op::Distinct),
    ("reveal", Op::Reveal),
    ("random_from", Op::RandomFrom),
    ("score", Op::Score),
    ("team_score", Op::TeamScore),
    ("top_cards", Op::TopCards),
    ("flatten", Op::Flatten),
    ("cyclic_next", Op::CyclicNext),
    ("cyclic_prev", Op::CyclicPrev),
    ("around", Op::Around),
    ("show", Op::Show),
    ("sort", Op::Sort),
    ("key_of", Op::KeyOf),
    ("kinds", Op::Kinds),
    ("card_of", Op::CardOf),
    ("roll", Op::Roll),
    ("face", Op::Face),
    ("faces", Op::Faces),
    ("showing", Op::Showing),
    ("get", Op::Get),
    ("with_key", Op::WithKey),
    ("without_key", Op::WithoutKey),
    ("keys", Op::Keys),
    ("values", Op::Values),
    ("text", Op::Text),
    ("number", Op::Number),
    ("word", Op::Word),
    ("sorted", Op::Sorted),
];

/// How many arguments an operation needs at least (ops.py: its parameters but the optional ones): an IR
/// giving fewer is refused as it is read, not failed on while playing.
fn fewest_args(op: Op) -> usize {
    match op {
        Op::Players | Op::NumPlayers => 0,
        Op::CyclicNext
        | Op::CyclicPrev
        | Op::IndexOf
        | Op::Item
        | Op::Move
        | Op::MoveAll
        | Op::MoveBottom
        | Op::Show
        | Op::Sort
        | Op::CardOf
        | Op::Showing
        | Op::Get
        | Op::WithoutKey
        | Op::Word
        | Op::TopCards => 2,
        Op::WithKey => 3,
        Op::Around => 4,
        _ => 1,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keyed {
    Max,
    Min,
    Sorted,
}

/// An expression node; children are indexes into `Game::nodes`.
#[derive(Debug, Clone)]
pub enum Expr {
    Lit(V),
    Local(u16, bool),
    Var(u16),
    List(Vec<Node>),
    Record(Vec<(u32, Node)>),
    Comp {
        var: u16,
        source: Node,
        element: Node,
        cond: Option<Node>,
    },
    Field(Node, u32),
    PVar(Node, u16),
    Attr(Node, u16),
    Member(u32, Node),
    Fn(u16, Vec<Node>),
    Op(Op, Vec<Node>),
    Cards(Node),
    /// `size(cards(z))` (false) and `is_empty(cards(z))` (true): the zone's length read, no list built.
    ZoneLen(Node, bool),
    /// An operation that reads a list once in order (`size`, `is_empty`, `any`, `all`, `sum`, `max`, `min`)
    /// given a comprehension (the node of its `Comp`): each element is taken as it is made, no list built.
    Fused(Op, Node),
    /// `list + [… for … in …]`: the comprehension's elements put after the list's in one new list.
    Append(Node, Node),
    /// A call of a small function replaced by its expression (`inline_calls`): the locals passed are read
    /// first, as the call would (a local with no value yet faults before the expression runs).
    Inline(Node, Vec<u16>),
    /// An expression a function's expression repeats (`share_repeats`): worked out at its first evaluation in a
    /// call and kept in the frame's local `slot` for the others.
    Memo(u16, Node),
    Keyed {
        how: Keyed,
        it: u16,
        source: Node,
        key: Node,
    },
    Not(Node),
    Neg(Node),
    Cond(Node, Node, Node),
    Bin(Bin, Node, Node),
    Table(u16, Node, Vec<Node>),
    Connected(u16, Node, Node, Node, Node),
    PathLength(u16, Node, Node, Node, Node),
    /// A walk over a board's spaces: its neighbours table, its steps table (space, direction → space), the
    /// board, and the walk's arguments.
    Walk(Walk, u16, u16, Node, Vec<Node>),
}

/// The board operations that walk from space to space over spaces given while playing.
#[derive(Debug, Clone, Copy)]
pub enum Walk {
    /// `line(board, space, direction, through)`
    Line,
    /// `group(board, space, through)`
    Group,
    /// `liberties(board, spaces, free)`
    Liberties,
}

#[derive(Debug)]
pub enum Label {
    Card,
    /// A card as a log line names it under `cards_in_logs: name`.
    CardName,
    Player,
    /// A player as a log line names it: its name in the rules (`players: names:`), else "seat N".
    Seat,
    Zone,
    Plain,
    List(Box<Label>),
    Record(Vec<(u32, Label)>),
}

#[derive(Debug)]
pub enum Store {
    Local(u16),
    Var(u16),
    PVar(Node, u16),
}

#[derive(Debug)]
pub struct Choose {
    /// Its index among the game's choices (keys the ids made of its options).
    pub id: u32,
    pub source: Node,
    pub filter: Option<(Node, u16)>,
    pub by: Option<Node>,
    pub each: Option<u16>,
    pub label: Label,
    pub prefix: Rc<str>,
    pub decline: Option<Rc<str>>,
    pub secret: bool,
    pub kind: Rc<str>,
    pub what: String,
    pub store: Store,
    /// Choosing several: the options are every list of LOW to HIGH of the items (several.rs).
    pub several: Option<Several>,
}

/// The bounds of choosing several and how one item prints (its members are put in the order of these ids).
#[derive(Debug)]
pub struct Several {
    pub low: Option<Node>,
    pub high: Option<Node>,
    pub label: Label,
}

#[derive(Debug)]
pub enum LogPart {
    Text(String),
    Value(Node, Label),
}

#[derive(Debug)]
pub enum Ins {
    Assign(Store, Node),
    Do(Node),
    Call(u16, Vec<Node>),
    Perform(Node),
    Log(Vec<LogPart>, Option<Node>),
    End(Rc<str>),
    Jump(u32),
    Return,
    Give(Node, bool),
    If(Node, u32),
    ForStart(u16, Node),
    ForStep(u16, u16, u32),
    RepeatStart(u16, Node),
    RepeatStep(u16, u32),
    WindowStart(u16, u16, Node),
    WindowAsk(u16, u32),
    WindowNext(u16, u16, u32),
    Reopen(u16),
    Close(u16, u32),
    Choose(Box<Choose>),
}

#[derive(Debug)]
pub struct Proc {
    pub name: Rc<str>,
    pub path: Rc<str>,
    pub params: Vec<u16>,
    pub code: Vec<Ins>,
    pub place: Vec<(u32, u32)>,
    pub locals: Vec<Rc<str>>,
    pub local_index: HashMap<Rc<str>, u16>,
    /// The local a called procedure's `return VALUE` writes in this procedure's frame.
    pub result: u16,
}

#[derive(Debug)]
pub enum Body {
    Expr(Node),
    Code(Vec<Ins>),
}

/// A greedy value: its kind of decision, expression, number of locals, and whether it reads the option's id
/// (`action`: made for each option only where it is read).
pub struct Greedy {
    pub kind: Rc<str>,
    pub expr: Node,
    pub nlocals: usize,
    pub reads_action: bool,
}

/// The local of a greedy value that holds the option's id.
pub const ACTION_SLOT: u16 = 2;

#[derive(Debug)]
pub struct Func {
    pub params: Vec<u16>,
    pub nlocals: usize,
    pub body: Body,
}

#[derive(Debug)]
pub struct Scorer {
    pub id: String,
    pub place: (Rc<str>, u32, u32),
    pub expr: Node,
    pub nlocals: usize,
}

#[derive(Debug)]
pub struct Seats {
    /// zone index → the seats whose points read it (each bit a seat; all when what the scoring reads is not
    /// known): a seat's own zone of a family the scoring reads only as the seat's own is read by that seat alone
    pub scored: Vec<u32>,
    pub zones: Vec<u32>,
    pub masks: Vec<u32>,
    /// seat → the zones it does not see into, in order
    pub unseen: Vec<Vec<u32>>,
    pub tops: Vec<bool>,
    pub start: Vec<Vec<u32>>,
    pub know: Vec<u32>,
    pub teams: Vec<Vec<u32>>,
    /// string id → zone index (u32::MAX: no zone of this game size)
    pub slot: Vec<u32>,
}

#[derive(Debug)]
pub enum Family {
    Player(Vec<u32>),
    Text(FxMap<u32, u32>),
}

/// Where a value holds cards, for a determinized copy to relabel them (lower.py's `_card_shape`).
#[derive(Debug)]
pub enum Shape {
    Card,
    List(Box<Shape>),
    /// A running `for`: its items, as a list of this shape.
    Loop(Box<Shape>),
    Record(Vec<(u32, Shape)>),
}

/// What a determinized copy reads of the rules: the back each card shows, the player variables other seats
/// may not read, and the variables and (per procedure) locals that hold cards.
#[derive(Debug, Default)]
pub struct Det {
    /// card → its back, numbered 0, 1, … as the backs first show among the cards (only equal backs matter)
    pub looks: Vec<u32>,
    /// How many backs there are.
    pub backs: usize,
    pub private: Vec<u16>,
    pub vars: Vec<(u16, Shape)>,
    pub pvars: Vec<(u16, Shape)>,
    pub locals: Vec<Vec<(u16, Shape)>>,
}

pub struct Variable {
    pub name: Rc<str>,
    pub initial: V,
    pub members: Option<Vec<u32>>,
    /// Its min: and max:, both included.
    pub bounds: Option<(i64, i64)>,
    /// The name of its enum, as a fault names it ("" when it holds no enum).
    pub enum_name: Rc<str>,
}

/// A join kept in `Game::joined_made`: the text made while playing that it starts with, and its value.
pub type Made = (SharedStr, V);

pub struct Game {
    pub id: String,
    pub variant: Option<String>,
    pub rules: String,
    pub min_players: usize,
    pub max_players: usize,
    pub step_budget: u64,
    pub ties_draw: bool,
    /// +1 where the most wins, -1 where the fewest does (`winner: lowest`): the points', then each
    /// tie-breaker's; a side's values times these rank it, the largest best.
    pub signs: Vec<i64>,
    pub default_end: Rc<str>,
    pub strings: Vec<Rc<str>>,
    pub string_ids: FxMap<Rc<str>, u32>,
    /// string id → the id of its key (`key_of`: the text after its first ':', or ""), u32::MAX where the
    /// game's table does not hold that key.
    pub keys: Vec<u32>,
    /// A none to lend where a value is read in place (a record's missing field).
    pub none: V,
    pub cards: Vec<u32>,
    pub attrs: Vec<Vec<V>>,
    pub effects: Vec<Option<u16>>,
    pub vars: Vec<Variable>,
    pub pvars: Vec<Variable>,
    pub families: FxMap<u32, Family>,
    pub seats: Vec<Option<Seats>>,
    pub procs: Vec<Proc>,
    pub proc_index: HashMap<Rc<str>, u16>,
    pub funcs: Vec<Func>,
    pub scoring: Vec<Scorer>,
    pub tiebreakers: Vec<Scorer>,
    /// The house's points (`house:`), which every seat's are set against; None: the seats play each other.
    pub house: Option<Scorer>,
    /// How well a seat stands when a search's rollout stops short (`bots: mcts`); None: by its points.
    pub standing: Option<Scorer>,
    /// The starts run as each game begins, when they draw at random (None: the places are `Seats::start`).
    pub deal: Option<crate::starts::Deal>,
    /// Per card: a die's faces, None for another card; empty in a game without dice.
    pub dice: Vec<Option<Shared<V>>>,
    pub nodes: Vec<Expr>,
    /// The nodes compiled (compile.rs): what `State::eval` runs.
    pub code: crate::compile::Code,
    pub tables: Vec<Table>,
    /// Per table: what the reference answers for arguments the table holds no entry of.
    pub misses: Vec<Miss>,
    /// Each board's spaces (text ids), in the board's order.
    pub board_spaces: FxMap<u32, Vec<u32>>,
    /// A board's name in its own file, by the name the rules give it (the reference's messages use the file's).
    pub board_names: FxMap<u32, u32>,
    pub attr_names: HashMap<u32, u16>,
    pub empty_string: u32,
    /// variable → whether the scoring reads it; the same for player variables
    pub scored_vars: Vec<bool>,
    pub scored_pvars: Vec<Readers>,
    pub det: Det,
    /// The greedy bot's values by kind of decision ("" for any other).
    pub greedy: Vec<Greedy>,
    /// What a log calls each seat (the rules' `players: names:`; none: "seat N").
    pub seat_names: Vec<String>,
    /// What a log calls each card (`cards_in_logs: name`), by card number; empty: cards by their ids.
    pub card_names: Vec<String>,
    /// Per choice, the ids of its options, made once: options recur decision after decision.
    pub ids: std::cell::RefCell<Vec<OptionIds>>,
    /// Two texts of the table joined (`a + b`), made once: zone names are often made so.
    pub joined: std::cell::RefCell<FxMap<(u32, u32), V>>,
    /// A text made while playing (by its address, the text kept alive beside) joined with a text of the table.
    pub joined_made: std::cell::RefCell<FxMap<(usize, u32), Made>>,
}

type R<T> = Result<T, String>;

fn bad<T>(what: impl Into<String>) -> R<T> {
    Err(what.into())
}

fn arr(j: &J, what: &str) -> R<Vec<J>> {
    match j {
        J::Array(a) => Ok(a.clone()),
        _ => bad(format!("{what} is not a list")),
    }
}

fn s<'a>(j: &'a J, what: &str) -> R<&'a str> {
    j.as_str().ok_or_else(|| format!("{what} is not a text"))
}

fn u(j: &J, what: &str) -> R<u64> {
    j.as_u64().ok_or_else(|| format!("{what} is not a whole number ≥ 0"))
}

fn int(j: &J, what: &str) -> R<i64> {
    j.as_i64().ok_or_else(|| format!("{what} is not a whole number"))
}

/// The texts under `key` (none when it is missing).
fn names(j: &J, key: &str, what: &str) -> R<Vec<String>> {
    match j.get(key) {
        None => Ok(vec![]),
        Some(names) => arr(names, key)?
            .iter()
            .map(|n| s(n, what).map(str::to_string))
            .collect(),
    }
}

fn get<'a>(j: &'a J, key: &str) -> R<&'a J> {
    j.get(key).ok_or_else(|| format!("'{key}' is missing"))
}

fn small(n: u64, limit: usize, what: &str) -> R<u16> {
    if (n as usize) < limit && n <= u64::from(u16::MAX) {
        Ok(n as u16)
    } else {
        bad(format!("{what} {n} is out of range"))
    }
}

struct Loader {
    strings: Vec<Rc<str>>,
    ids: FxMap<Rc<str>, u32>,
    nodes: Vec<Expr>,
    var_index: HashMap<String, u16>,
    pvar_index: HashMap<String, u16>,
    attr_index: HashMap<String, u16>,
    nprocs: usize,
    nfuncs: usize,
    ntables: usize,
    nlocals: usize,
    nchoices: u32,
}

impl Loader {
    fn intern(&mut self, text: &str) -> u32 {
        if let Some(&i) = self.ids.get(text) {
            return i;
        }
        let rc: Rc<str> = text.into();
        let i = self.strings.len() as u32;
        self.strings.push(rc.clone());
        self.ids.insert(rc, i);
        i
    }

    fn value(&mut self, j: &J) -> R<V> {
        Ok(match j {
            J::Null => V::None,
            J::Bool(b) => V::Bool(*b),
            J::Number(n) => V::Int(n.as_i64().ok_or("a number of the IR is not a whole 64-bit number")?),
            J::String(t) => V::Str(self.intern(t)),
            J::Array(a) => V::list(a.iter().map(|x| self.value(x)).collect::<R<Vec<_>>>()?),
            J::Object(o) => {
                let mut fields = Vec::with_capacity(o.len());
                for (k, v) in o {
                    let k = self.intern(k);
                    fields.push((k, self.value(v)?));
                }
                V::Rec(fields.into())
            }
        })
    }

    fn local(&self, j: &J) -> R<u16> {
        small(u(j, "a local")?, self.nlocals, "local")
    }

    fn push(&mut self, e: Expr) -> Node {
        self.nodes.push(e);
        (self.nodes.len() - 1) as Node
    }

    fn opt_expr(&mut self, j: &J) -> R<Option<Node>> {
        if j.is_null() {
            Ok(None)
        } else {
            self.expr(j).map(Some)
        }
    }

    fn exprs(&mut self, j: &J) -> R<Vec<Node>> {
        arr(j, "arguments")?.iter().map(|x| self.expr(x)).collect()
    }

    fn expr(&mut self, j: &J) -> R<Node> {
        let a = arr(j, "an expression")?;
        let head = s(a.first().ok_or("an empty expression")?, "an expression's kind")?;
        let arg = |i: usize| a.get(i).ok_or_else(|| format!("'{head}' lacks its part {i}"));
        let e = match head {
            "lit" => Expr::Lit(self.value(arg(1)?)?),
            "lit_list" => Expr::Lit(self.value(arg(1)?)?),
            "local" => Expr::Local(self.local(arg(1)?)?, arg(2)?.as_bool().unwrap_or(false)),
            "var" => Expr::Var(self.var(s(arg(1)?, "a variable")?)?),
            "list" => Expr::List(self.exprs(arg(1)?)?),
            "record" => {
                let mut fields = vec![];
                for f in arr(arg(1)?, "fields")? {
                    let name = self.intern(s(&f[0], "a field name")?);
                    fields.push((name, self.expr(&f[1])?));
                }
                Expr::Record(fields)
            }
            "comp" => Expr::Comp {
                var: self.local(arg(1)?)?,
                source: self.expr(arg(2)?)?,
                element: self.expr(arg(3)?)?,
                cond: self.opt_expr(arg(4)?)?,
            },
            "field" => {
                let obj = self.expr(arg(1)?)?;
                Expr::Field(obj, self.intern(s(arg(2)?, "a field")?))
            }
            "pvar" => {
                let obj = self.expr(arg(1)?)?;
                Expr::PVar(obj, self.pvar(s(arg(2)?, "a player variable")?)?)
            }
            "attr" => {
                let obj = self.expr(arg(1)?)?;
                let name = s(arg(2)?, "an attribute")?;
                let i = *self.attr_index.get(name).ok_or(format!("no card attribute '{name}'"))?;
                Expr::Attr(obj, i)
            }
            "member" => {
                let fam = self.intern(s(arg(1)?, "a zone family")?);
                Expr::Member(fam, self.expr(arg(2)?)?)
            }
            "fn" => Expr::Fn(
                small(u(arg(1)?, "a function")?, self.nfuncs, "function")?,
                self.exprs(arg(2)?)?,
            ),
            "op" => {
                let name = s(arg(1)?, "an operation")?;
                let op = OPS
                    .iter()
                    .find(|(n, _)| *n == name)
                    .ok_or(format!("no operation '{name}'"))?
                    .1;
                let args = self.exprs(arg(2)?)?;
                if args.len() < fewest_args(op) {
                    return bad(format!("the operation '{name}' has {} arguments", args.len()));
                }
                Expr::Op(op, args)
            }
            "cards" => Expr::Cards(self.expr(arg(1)?)?),
            "keyed" => Expr::Keyed {
                how: match s(arg(1)?, "a keyed operation")? {
                    "max" => Keyed::Max,
                    "min" => Keyed::Min,
                    "sorted" => Keyed::Sorted,
                    other => return bad(format!("no keyed operation '{other}'")),
                },
                it: self.local(arg(2)?)?,
                source: self.expr(arg(3)?)?,
                key: self.expr(arg(4)?)?,
            },
            "not" => Expr::Not(self.expr(arg(1)?)?),
            "neg" => Expr::Neg(self.expr(arg(1)?)?),
            "cond" => Expr::Cond(self.expr(arg(1)?)?, self.expr(arg(2)?)?, self.expr(arg(3)?)?),
            "bin" => {
                let op = match s(arg(1)?, "an operator")? {
                    "+" => Bin::Add,
                    "-" => Bin::Sub,
                    "*" => Bin::Mul,
                    "//" => Bin::Div,
                    "%" => Bin::Mod,
                    "==" => Bin::Eq,
                    "!=" => Bin::Ne,
                    "<" => Bin::Lt,
                    "<=" => Bin::Le,
                    ">" => Bin::Gt,
                    ">=" => Bin::Ge,
                    "and" => Bin::And,
                    "or" => Bin::Or,
                    "in" => Bin::In,
                    "not in" => Bin::NotIn,
                    other => return bad(format!("no operator '{other}'")),
                };
                Expr::Bin(op, self.expr(arg(2)?)?, self.expr(arg(3)?)?)
            }
            "table" => Expr::Table(
                small(u(arg(1)?, "a table")?, self.ntables, "table")?,
                self.expr(arg(2)?)?,
                self.exprs(arg(3)?)?,
            ),
            "path_length" => Expr::PathLength(
                small(u(arg(1)?, "a table")?, self.ntables, "table")?,
                self.expr(arg(2)?)?,
                self.expr(arg(3)?)?,
                self.expr(arg(4)?)?,
                self.expr(arg(5)?)?,
            ),
            "connected" => Expr::Connected(
                small(u(arg(1)?, "a table")?, self.ntables, "table")?,
                self.expr(arg(2)?)?,
                self.expr(arg(3)?)?,
                self.expr(arg(4)?)?,
                self.expr(arg(5)?)?,
            ),
            "walk" => {
                let (how, arity) = match s(arg(1)?, "a walk")? {
                    "line" => (Walk::Line, 3),
                    "group" => (Walk::Group, 2),
                    "liberties" => (Walk::Liberties, 2),
                    other => return bad(format!("no walk '{other}'")),
                };
                let args = self.exprs(arg(5)?)?;
                if args.len() != arity {
                    return bad(format!("a walk takes {arity} values after the board"));
                }
                Expr::Walk(
                    how,
                    small(u(arg(2)?, "a table")?, self.ntables, "table")?,
                    small(u(arg(3)?, "a table")?, self.ntables, "table")?,
                    self.expr(arg(4)?)?,
                    args,
                )
            }
            other => return bad(format!("unknown expression '{other}'")),
        };
        if let Expr::Table(_, _, args) = &e {
            if args.len() > 3 {
                return bad("a table is looked up by at most three values");
            }
        }
        let e = self.fold(e);
        Ok(self.push(e))
    }

    /// A node specialised now that its children are known, to the same values and faults: lists and
    /// records of literals become literals, `size`/`is_empty` of a zone's cards read the zone's length.
    fn fold(&self, e: Expr) -> Expr {
        let lit = |n: &Node| match &self.nodes[*n as usize] {
            Expr::Lit(v) => Some(v.clone()),
            _ => None,
        };
        match e {
            Expr::List(items) => match items.iter().map(lit).collect::<Option<Vec<V>>>() {
                Some(values) => Expr::Lit(V::list(values)),
                None => Expr::List(items),
            },
            Expr::Record(fields) => match fields
                .iter()
                .map(|(name, n)| lit(n).map(|v| (*name, v)))
                .collect::<Option<Vec<(u32, V)>>>()
            {
                Some(values) => Expr::Lit(V::Rec(values.into())),
                None => Expr::Record(fields),
            },
            Expr::Op(op @ (Op::Size | Op::IsEmpty), args) => {
                let zone = match (args.len(), args.first().map(|&n| &self.nodes[n as usize])) {
                    (1, Some(Expr::Cards(z))) => Some(*z),
                    _ => None,
                };
                match zone {
                    Some(z) => Expr::ZoneLen(z, op == Op::IsEmpty),
                    None => self.fused(op, args),
                }
            }
            Expr::Op(op @ (Op::Any | Op::All | Op::Sum | Op::Max | Op::Min), args) => self.fused(op, args),
            Expr::Bin(Bin::Add, a, b) if matches!(self.nodes[b as usize], Expr::Comp { .. }) => Expr::Append(a, b),
            e => e,
        }
    }

    /// `op` of one comprehension fused with it; any other operation as it is.
    fn fused(&self, op: Op, args: Vec<Node>) -> Expr {
        match args[..] {
            [comp] if matches!(self.nodes[comp as usize], Expr::Comp { .. }) => Expr::Fused(op, comp),
            _ => Expr::Op(op, args),
        }
    }

    fn var(&self, name: &str) -> R<u16> {
        self.var_index.get(name).copied().ok_or(format!("no variable '{name}'"))
    }

    fn pvar(&self, name: &str) -> R<u16> {
        self.pvar_index
            .get(name)
            .copied()
            .ok_or(format!("no player variable '{name}'"))
    }

    fn store(&mut self, j: &J) -> R<Store> {
        arr(j, "a store")?;
        let a = j; // indexed as JSON: a part it lacks reads as null, refused below
        Ok(match s(&a[0], "a store's kind")? {
            "local" => Store::Local(self.local(&a[1])?),
            "var" => Store::Var(self.var(s(&a[1], "a variable")?)?),
            "pvar" => {
                let obj = self.expr(&a[1])?;
                Store::PVar(obj, self.pvar(s(&a[2], "a player variable")?)?)
            }
            other => return bad(format!("unknown store '{other}'")),
        })
    }

    fn label(&mut self, j: &J) -> R<Label> {
        if let Some(t) = j.as_str() {
            return Ok(match t {
                "card" => Label::Card,
                "card_name" => Label::CardName,
                "player" => Label::Player,
                "seat" => Label::Seat,
                "zone" => Label::Zone,
                "plain" => Label::Plain,
                other => return bad(format!("unknown label '{other}'")),
            });
        }
        let a = arr(j, "a label")?;
        match s(a.first().ok_or("an empty label")?, "a label")? {
            "list" => Ok(Label::List(Box::new(self.label(a.get(1).ok_or("a list label")?)?))),
            "record" => {
                let mut fields = vec![];
                for f in arr(a.get(1).ok_or("a record label")?, "fields")? {
                    let name = self.intern(s(&f[0], "a field")?);
                    fields.push((name, self.label(&f[1])?));
                }
                Ok(Label::Record(fields))
            }
            other => bad(format!("unknown label '{other}'")),
        }
    }

    fn code(&mut self, j: &J) -> R<Vec<Ins>> {
        let list = arr(j, "code")?;
        let len = list.len();
        let pc = |j: &J| -> R<u32> {
            let p = u(j, "a jump")?;
            if (p as usize) < len {
                Ok(p as u32)
            } else {
                bad(format!("a jump to {p} is out of the code"))
            }
        };
        let mut out = Vec::with_capacity(list.len());
        for ins in &list {
            let a = arr(ins, "an instruction")?;
            let head = s(a.first().ok_or("an empty instruction")?, "an instruction")?;
            let arg = |i: usize| a.get(i).ok_or_else(|| format!("'{head}' lacks its part {i}"));
            out.push(match head {
                "assign" => {
                    let st = self.store(arg(1)?)?;
                    Ins::Assign(st, self.expr(arg(2)?)?)
                }
                "do" => Ins::Do(self.expr(arg(1)?)?),
                "call" => Ins::Call(
                    small(u(arg(1)?, "a procedure")?, self.nprocs, "procedure")?,
                    self.exprs(arg(2)?)?,
                ),
                "perform" => Ins::Perform(self.expr(arg(1)?)?),
                "log" => {
                    let mut parts = vec![];
                    for p in arr(arg(1)?, "log parts")? {
                        if let Some(t) = p.as_str() {
                            parts.push(LogPart::Text(t.to_string()));
                        } else {
                            let e = self.expr(&p[0])?;
                            parts.push(LogPart::Value(e, self.label(&p[1])?));
                        }
                    }
                    Ins::Log(parts, self.opt_expr(arg(2)?)?)
                }
                "end" => Ins::End(s(arg(1)?, "a reason")?.into()),
                "jump" => Ins::Jump(pc(arg(1)?)?),
                "return" => Ins::Return,
                "give" => Ins::Give(self.expr(arg(1)?)?, arg(2)?.as_bool().unwrap_or(false)),
                "if" => Ins::If(self.expr(arg(1)?)?, pc(arg(2)?)?),
                "for_start" => Ins::ForStart(self.local(arg(1)?)?, self.expr(arg(2)?)?),
                "for_step" => Ins::ForStep(self.local(arg(1)?)?, self.local(arg(2)?)?, pc(arg(3)?)?),
                "repeat_start" => Ins::RepeatStart(self.local(arg(1)?)?, self.expr(arg(2)?)?),
                "repeat_step" => Ins::RepeatStep(self.local(arg(1)?)?, pc(arg(2)?)?),
                "window_start" => Ins::WindowStart(self.local(arg(1)?)?, self.local(arg(2)?)?, self.expr(arg(3)?)?),
                "window_ask" => Ins::WindowAsk(self.local(arg(1)?)?, pc(arg(2)?)?),
                "window_next" => Ins::WindowNext(self.local(arg(1)?)?, self.local(arg(2)?)?, pc(arg(3)?)?),
                "reopen" => Ins::Reopen(self.local(arg(1)?)?),
                "close" => Ins::Close(self.local(arg(1)?)?, pc(arg(2)?)?),
                "choose" => {
                    let c = arg(1)?;
                    let filter = match self.opt_expr(get(c, "where")?)? {
                        Some(e) => Some((e, self.local(get(c, "it")?)?)),
                        None => None,
                    };
                    let each = if get(c, "each")?.is_null() {
                        None
                    } else {
                        Some(self.local(get(c, "each")?)?)
                    };
                    let decline = get(c, "decline")?;
                    let several = match get(c, "several")? {
                        J::Null => None,
                        b => Some(Several {
                            low: self.opt_expr(get(b, "low")?)?,
                            high: self.opt_expr(get(b, "high")?)?,
                            label: self.label(get(b, "label")?)?,
                        }),
                    };
                    self.nchoices += 1;
                    Ins::Choose(Box::new(Choose {
                        id: self.nchoices,
                        source: self.expr(get(c, "source")?)?,
                        filter,
                        by: self.opt_expr(get(c, "by")?)?,
                        each,
                        label: self.label(get(c, "label")?)?,
                        prefix: s(get(c, "prefix")?, "a prefix")?.into(),
                        decline: if decline.is_null() {
                            None
                        } else {
                            Some(s(decline, "a decline")?.into())
                        },
                        secret: get(c, "secret")?.as_bool().unwrap_or(false),
                        kind: s(get(c, "kind")?, "a kind")?.into(),
                        what: s(get(c, "what")?, "a choice's name")?.to_string(),
                        store: self.store(get(c, "store")?)?,
                        several,
                    }))
                }
                other => return bad(format!("unknown instruction '{other}'")),
            });
        }
        runs_whole(&out)?;
        Ok(out)
    }

    fn shape(&mut self, j: &J, depth: usize) -> R<Shape> {
        if depth > 32 {
            return bad("a card shape is nested too deeply");
        }
        if j.as_str() == Some("card") {
            return Ok(Shape::Card);
        }
        let a = arr(j, "a card shape")?;
        let inner = a.get(1).ok_or("a card shape lacks its part")?;
        Ok(
            match s(a.first().ok_or("an empty card shape")?, "a card shape's kind")? {
                "list" => Shape::List(Box::new(self.shape(inner, depth + 1)?)),
                "loop" => Shape::Loop(Box::new(self.shape(inner, depth + 1)?)),
                "record" => {
                    let mut fields = vec![];
                    for f in arr(inner, "a record shape")? {
                        let name = self.intern(s(f.get(0).ok_or("a field shape")?, "a field name")?);
                        fields.push((name, self.shape(f.get(1).ok_or("a field shape")?, depth + 1)?));
                    }
                    Shape::Record(fields)
                }
                other => return bad(format!("no card shape '{other}'")),
            },
        )
    }

    /// (slot, shape) of the names in `j` ({name: shape}), each named by `slot`.
    fn shapes(&mut self, j: &J, slot: impl Fn(&str) -> R<u16>) -> R<Vec<(u16, Shape)>> {
        let mut out = vec![];
        for (name, sh) in j.as_object().ok_or("card shapes are not a map")? {
            out.push((slot(name)?, self.shape(sh, 0)?));
        }
        Ok(out)
    }

    fn locals(&mut self, j: &J) -> R<Vec<Rc<str>>> {
        let names = arr(j, "locals")?;
        if names.len() > usize::from(u16::MAX) {
            return bad("too many locals");
        }
        names.iter().map(|n| Ok(s(n, "a local's name")?.into())).collect()
    }
}

/// `e` with each child `c` replaced by `f(c)`.
fn rebuild(e: &Expr, f: &mut impl FnMut(Node) -> Node) -> Expr {
    let mut all = |v: &[Node]| v.iter().map(|&c| f(c)).collect::<Vec<_>>();
    match e {
        Expr::Lit(_) | Expr::Local(..) | Expr::Var(_) => e.clone(),
        Expr::List(items) => Expr::List(all(items)),
        Expr::Record(fields) => {
            let values = all(&fields.iter().map(|(_, n)| *n).collect::<Vec<_>>());
            Expr::Record(fields.iter().zip(values).map(|((k, _), n)| (*k, n)).collect())
        }
        Expr::Fn(i, args) => Expr::Fn(*i, all(args)),
        Expr::Op(op, args) => Expr::Op(*op, all(args)),
        Expr::Table(t, board, args) => {
            let board = f(*board);
            Expr::Table(*t, board, args.iter().map(|&c| f(c)).collect())
        }
        Expr::Walk(how, a, b, board, args) => {
            let board = f(*board);
            Expr::Walk(*how, *a, *b, board, args.iter().map(|&c| f(c)).collect())
        }
        Expr::Comp {
            var,
            source,
            element,
            cond,
        } => Expr::Comp {
            var: *var,
            source: f(*source),
            element: f(*element),
            cond: cond.map(&mut *f),
        },
        Expr::Keyed { how, it, source, key } => Expr::Keyed {
            how: *how,
            it: *it,
            source: f(*source),
            key: f(*key),
        },
        Expr::Field(o, k) => Expr::Field(f(*o), *k),
        Expr::PVar(o, k) => Expr::PVar(f(*o), *k),
        Expr::Attr(o, k) => Expr::Attr(f(*o), *k),
        Expr::Member(fam, k) => Expr::Member(*fam, f(*k)),
        Expr::Cards(z) => Expr::Cards(f(*z)),
        Expr::ZoneLen(z, empty) => Expr::ZoneLen(f(*z), *empty),
        Expr::Fused(op, comp) => Expr::Fused(*op, f(*comp)),
        Expr::Append(a, comp) => {
            let a = f(*a);
            Expr::Append(a, f(*comp))
        }
        Expr::Inline(body, passed) => Expr::Inline(f(*body), passed.clone()),
        Expr::Memo(slot, x) => Expr::Memo(*slot, f(*x)),
        Expr::Not(x) => Expr::Not(f(*x)),
        Expr::Neg(x) => Expr::Neg(f(*x)),
        Expr::Cond(c, a, b) => {
            let (c, a) = (f(*c), f(*a));
            Expr::Cond(c, a, f(*b))
        }
        Expr::Bin(op, a, b) => {
            let a = f(*a);
            Expr::Bin(*op, a, f(*b))
        }
        Expr::PathLength(t, a, b, c, d) | Expr::Connected(t, a, b, c, d) => {
            let parts = [f(*a), f(*b), f(*c), f(*d)];
            match e {
                Expr::PathLength(..) => Expr::PathLength(*t, parts[0], parts[1], parts[2], parts[3]),
                _ => Expr::Connected(*t, parts[0], parts[1], parts[2], parts[3]),
            }
        }
    }
}

/// Whether expression `e` reads local `slot` (a call's arguments are read in the caller's locals, its body in
/// its own).
fn reads_local(nodes: &[Expr], e: Node, slot: u16) -> bool {
    match &nodes[e as usize] {
        Expr::Local(s, _) => *s == slot,
        other => {
            let mut found = false;
            rebuild(other, &mut |c| {
                found = found || reads_local(nodes, c, slot);
                c
            });
            found
        }
    }
}

/// Whether function `f`'s expression `e` reads no local but `me` and its parameters, never moves one out,
/// and calls no function (a call of a function already replaced by its expression is read as that expression):
/// what lets a call of it be replaced by the expression itself.
fn inlinable(nodes: &[Expr], e: Node, f: &Func) -> bool {
    let mut ok = true;
    let mut visit = |n: Node| -> Node {
        ok = ok && inlinable(nodes, n, f);
        n
    };
    match &nodes[e as usize] {
        Expr::Local(slot, pop) => !pop && (*slot == 0 || f.params.contains(slot)),
        Expr::Inline(body, passed) => {
            passed.iter().all(|s| *s == 0 || f.params.contains(s)) && inlinable(nodes, *body, f)
        }
        Expr::Fn(..) | Expr::Comp { .. } | Expr::Fused(..) | Expr::Append(..) | Expr::Keyed { .. } => false,
        other => {
            rebuild(other, &mut visit);
            ok
        }
    }
}

/// A copy of expression `e` with its locals replaced by the nodes `args` maps them to.
fn substitute(nodes: &mut Vec<Expr>, e: Node, args: &[(u16, Node)]) -> Node {
    if let Expr::Local(slot, _) = nodes[e as usize] {
        if let Some((_, a)) = args.iter().find(|(s, _)| *s == slot) {
            return *a;
        }
    }
    let mut copy = rebuild(&nodes[e as usize].clone(), &mut |c| substitute(nodes, c, args));
    if let Expr::Inline(_, passed) = &mut copy {
        // the locals a call inlined in the expression reads first: the caller's locals they are now, if any
        *passed = passed
            .iter()
            .filter_map(|&slot| match args.iter().find(|(s, _)| *s == slot) {
                Some(&(_, a)) => match nodes[a as usize] {
                    Expr::Local(caller, _) => Some(caller),
                    _ => None,
                },
                None => Some(slot),
            })
            .collect();
    }
    nodes.push(copy);
    (nodes.len() - 1) as Node
}

/// Whether a program's instructions can run as written: it ends where no instruction falls through (so no jump,
/// all within the code, and no step runs past its end), each loop's step comes right after its start (the head a
/// loop jumps back to) over the state that start keeps, no jump enters a loop's head or body from outside the
/// loop (where its state may be gone), and each choice made by every seat at once is told its seats. An IR whose
/// code breaks one of these is refused at load, not met as an engine bug while playing.
fn runs_whole(code: &[Ins]) -> R<()> {
    if !matches!(
        code.last(),
        Some(Ins::Return | Ins::Give(..) | Ins::Jump(_) | Ins::End(_))
    ) {
        return bad("a program runs past its end");
    }
    for (i, ins) in code.iter().enumerate() {
        let before = i.checked_sub(1).map(|b| &code[b]);
        let kept = match (ins, before) {
            (Ins::ForStep(key, _, _), Some(Ins::ForStart(start, _))) => key == start,
            (Ins::RepeatStep(key, _), Some(Ins::RepeatStart(start, _))) => key == start,
            (Ins::ForStep(..) | Ins::RepeatStep(..), _) => false,
            (Ins::Choose(c), _) if c.each.is_some() && c.by.is_none() => {
                return bad("a choice of every seat at once has no seats")
            }
            _ => true,
        };
        if !kept {
            return bad("a loop's step does not follow its start over the same local");
        }
    }
    // each loop from its step (its head) up to where it goes when done
    let loops: Vec<std::ops::Range<usize>> = code
        .iter()
        .enumerate()
        .filter_map(|(pc, ins)| match ins {
            Ins::ForStep(_, _, done) | Ins::RepeatStep(_, done) => Some(pc..*done as usize),
            _ => None,
        })
        .collect();
    for (pc, ins) in code.iter().enumerate() {
        let target = match ins {
            Ins::Jump(to) | Ins::If(_, to) | Ins::ForStep(_, _, to) | Ins::RepeatStep(_, to) => *to,
            Ins::WindowAsk(_, to) | Ins::WindowNext(_, _, to) | Ins::Close(_, to) => *to,
            _ => continue,
        } as usize;
        if loops.iter().any(|l| l.contains(&target) && !l.contains(&pc)) {
            return bad("a jump goes into a loop from outside it");
        }
    }
    Ok(())
}

/// Calls of functions written as one small expression (`inlinable`), given literals or locals (read, not
/// moved), replaced by the expression with the parameters read where the arguments are: the same values and
/// faults, without a frame per call.  A function whose expression calls only such functions becomes one in
/// turn, a round later (a function that calls itself never does).
fn inline_all_calls(nodes: &mut Vec<Expr>, funcs: &[Func]) {
    for _ in 0..INLINE_ROUNDS {
        if !inline_calls(nodes, funcs) {
            break;
        }
    }
}

/// Whether a call of `func` with `args`, all literals or locals but one expression, may be replaced by the
/// function's expression `body` with that expression in its parameter's place: the expression is the last but
/// literals, and `body` reads that parameter once, before anything else it evaluates — so it is evaluated once,
/// in the call's order, after the locals before it are read.
fn evaluated_in_place(nodes: &[Expr], body: Node, func: &Func, args: &[Node]) -> bool {
    let plain = |a: &Node| matches!(nodes[*a as usize], Expr::Lit(_) | Expr::Local(_, false));
    let Some(k) = args.iter().position(|a| !plain(a)) else {
        return false;
    };
    let slot = func.params[k];
    args[k + 1..].iter().all(|a| matches!(nodes[*a as usize], Expr::Lit(_)))
        && reads_first(nodes, body, slot)
        && reads_of(nodes, body, slot) == 1
}

/// Whether the first thing evaluating `e` evaluates is the local `slot` (read in place or not).
fn reads_first(nodes: &[Expr], e: Node, slot: u16) -> bool {
    match &nodes[e as usize] {
        Expr::Local(s, false) => *s == slot,
        Expr::Attr(o, _)
        | Expr::Field(o, _)
        | Expr::PVar(o, _)
        | Expr::Not(o)
        | Expr::Neg(o)
        | Expr::ZoneLen(o, _)
        | Expr::Member(_, o)
        | Expr::Bin(_, o, _)
        | Expr::Cond(o, _, _) => reads_first(nodes, *o, slot),
        Expr::Op(Op::KeyOf | Op::ZoneOf, args) => args.len() == 1 && reads_first(nodes, args[0], slot),
        Expr::Table(_, board, args) => {
            matches!(nodes[*board as usize], Expr::Lit(_)) && !args.is_empty() && reads_first(nodes, args[0], slot)
        }
        Expr::Inline(body, passed) => passed.iter().all(|&s| s == slot || s == 0) && reads_first(nodes, *body, slot),
        _ => false,
    }
}

/// How many times `e` reads the local `slot`.
fn reads_of(nodes: &[Expr], e: Node, slot: u16) -> usize {
    match &nodes[e as usize] {
        Expr::Local(s, _) => usize::from(*s == slot),
        other => {
            let mut n = 0;
            rebuild(other, &mut |c| {
                n += reads_of(nodes, c, slot);
                c
            });
            n
        }
    }
}

/// A function's expression with each expression it repeats — the same shape over the same parameters, such as
/// a small function inlined twice, or one in a comprehension's element or condition, met once per item — worked
/// out once per call, where first met (`Expr::Memo`, in a local added to its frame): a function's expression
/// changes nothing, and its parameters keep their values while it runs, so each repeat has the value (or the
/// fault) of the first.
fn share_repeats(nodes: &mut Vec<Expr>, func: &mut Func) {
    let Body::Expr(root) = func.body else {
        return;
    };
    let mut shapes: FxMap<String, u32> = FxMap::default();
    let mut shape_of: FxMap<Node, u32> = FxMap::default();
    let mut seen: FxMap<u32, Vec<Branches>> = FxMap::default();
    shape(nodes, root, &mut shapes, &mut shape_of, &mut seen, &mut vec![]);
    let mut slots: FxMap<u32, u16> = FxMap::default();
    choose_shared(nodes, root, func, &shape_of, &seen, &mut slots);
    if slots.is_empty() {
        return;
    }
    let new_root = share(nodes, root, &shape_of, &slots);
    func.body = Body::Expr(new_root);
    func.nlocals += slots.len();
}

/// The repeated expressions under `n` to keep, each given a slot after the function's locals: the outermost
/// (one inside a kept one is kept only if it is repeated elsewhere too).
fn choose_shared(
    nodes: &[Expr],
    n: Node,
    func: &Func,
    shape_of: &FxMap<Node, u32>,
    seen: &FxMap<u32, Vec<Branches>>,
    slots: &mut FxMap<u32, u16>,
) {
    let k = shape_of[&n];
    if slots.contains_key(&k) {
        return;
    }
    if met_twice(nodes, &seen[&k]) && worth_sharing(nodes, n) && shareable(nodes, n, func) {
        let Ok(slot) = u16::try_from(func.nlocals + slots.len()) else {
            return;
        };
        slots.insert(k, slot);
        return;
    }
    rebuild(&nodes[n as usize], &mut |c| {
        choose_shared(nodes, c, func, shape_of, seen, slots);
        c
    });
}

/// The branches of conditionals (`x if c else y`: the node, then or else) that a place in an expression is in.
type Branches = Vec<(Node, bool)>;

/// The shape of `n` (equal for equal expressions); each place it appears in is added to `seen` with the
/// branches it is in (`within`).
fn shape(
    nodes: &[Expr],
    n: Node,
    shapes: &mut FxMap<String, u32>,
    shape_of: &mut FxMap<Node, u32>,
    seen: &mut FxMap<u32, Vec<Branches>>,
    within: &mut Branches,
) -> u32 {
    let cond = matches!(nodes[n as usize], Expr::Cond(..));
    let per_item = repeats(nodes, n);
    let mut child = 0;
    let parts = rebuild(&nodes[n as usize], &mut |c| {
        // a conditional's then or else; a comprehension's element, condition or key (met once per item)
        let within_n = (cond || per_item) && child > 0;
        if within_n {
            within.push((n, per_item || child == 1));
        }
        child += 1;
        let k = shape(nodes, c, shapes, shape_of, seen, within);
        if within_n {
            within.pop();
        }
        k
    });
    let fresh = shapes.len() as u32;
    let k = *shapes.entry(format!("{parts:?}")).or_insert(fresh);
    shape_of.insert(n, k);
    seen.entry(k).or_default().push(within.clone());
    k
}

/// Whether these places may be evaluated more than once in one call: one is within a comprehension's element,
/// condition or key (once per item), or two may both be evaluated (not one in a conditional's then and the other
/// in its else).
fn met_twice(nodes: &[Expr], places: &[Branches]) -> bool {
    let per_item = |a: &Branches| a.iter().any(|&(c, _)| repeats(nodes, c));
    let apart = |a: &Branches, b: &Branches| a.iter().any(|(c, then)| b.iter().any(|(d, t)| c == d && then != t));
    places.iter().any(per_item)
        || places
            .iter()
            .enumerate()
            .any(|(i, a)| places[i + 1..].iter().any(|b| !apart(a, b)))
}

/// Whether `n` evaluates its children after the first once per item: a comprehension (its element and
/// condition) or a keyed pick (its key).
fn repeats(nodes: &[Expr], n: Node) -> bool {
    matches!(nodes[n as usize], Expr::Comp { .. } | Expr::Keyed { .. })
}

/// Whether sharing `n` saves more than it costs: not a literal, a local, a value read in place or the zone of a
/// family a local names, nor a zone's cards (a comprehension reads them in place, without making the list).
fn worth_sharing(nodes: &[Expr], n: Node) -> bool {
    let base = |o: &Node| matches!(nodes[*o as usize], Expr::Local(..) | Expr::Var(_));
    match &nodes[n as usize] {
        Expr::Lit(_) | Expr::Local(..) | Expr::Var(_) | Expr::Cards(_) => false,
        Expr::Field(o, _) | Expr::Attr(o, _) | Expr::PVar(o, _) | Expr::Member(_, o) => !base(o),
        _ => true,
    }
}

/// Whether `n`'s value is the same wherever it is evaluated in one call of `func`: it reads no local but `me`
/// and the parameters, binds none, and draws nothing.
fn shareable(nodes: &[Expr], n: Node, func: &Func) -> bool {
    let own = match &nodes[n as usize] {
        Expr::Local(slot, pop) => return !pop && (*slot == 0 || func.params.contains(slot)),
        Expr::Comp { .. } | Expr::Fused(..) | Expr::Append(..) | Expr::Keyed { .. } | Expr::Memo(..) => false,
        Expr::Op(op, _) => !matches!(
            op,
            Op::Move
                | Op::MoveBottom
                | Op::MoveAll
                | Op::Shuffle
                | Op::Reverse
                | Op::Reveal
                | Op::RandomFrom
                | Op::Roll
                | Op::Show
                | Op::Score
                | Op::TeamScore
        ),
        Expr::Inline(_, passed) => passed.iter().all(|s| *s == 0 || func.params.contains(s)),
        _ => true,
    };
    let mut ok = own;
    rebuild(&nodes[n as usize], &mut |c| {
        ok = ok && shareable(nodes, c, func);
        c
    });
    ok
}

/// The locals repeated expression `e` reads, where a bot's rating may keep its value by them (`state::Memo`): at
/// most two, and no call under it (a call's depth and steps are counted where it runs).
pub(crate) fn memo_reads(nodes: &[Expr], e: Node) -> Option<Vec<u16>> {
    fn walk(nodes: &[Expr], n: Node, reads: &mut Vec<u16>) -> bool {
        match nodes[n as usize] {
            Expr::Fn(..) | Expr::Local(_, true) => return false,
            Expr::Local(slot, false) if !reads.contains(&slot) => reads.push(slot),
            _ => {}
        }
        let mut ok = true;
        rebuild(&nodes[n as usize], &mut |c| {
            ok = ok && walk(nodes, c, reads);
            c
        });
        ok
    }
    let mut reads = vec![];
    (walk(nodes, e, &mut reads) && reads.len() <= 2).then_some(reads)
}

/// `n` with each expression of a shape in `slots` kept in its slot; nodes are copied where changed, never
/// changed in place.
fn share(nodes: &mut Vec<Expr>, n: Node, shape_of: &FxMap<Node, u32>, slots: &FxMap<u32, u16>) -> Node {
    let mut changed = false;
    let copy = rebuild(&nodes[n as usize].clone(), &mut |c| {
        let d = share(nodes, c, shape_of, slots);
        changed |= d != c;
        d
    });
    let inner = if changed {
        nodes.push(copy);
        (nodes.len() - 1) as Node
    } else {
        n
    };
    match slots.get(&shape_of[&n]) {
        Some(&slot) => {
            nodes.push(Expr::Memo(slot, inner));
            (nodes.len() - 1) as Node
        }
        None => inner,
    }
}

/// The most rounds of `inline_calls`: how deep calls of small functions in small functions are inlined.
const INLINE_ROUNDS: usize = 4;

/// One round of `inline_all_calls`: whether any call was replaced.
fn inline_calls(nodes: &mut Vec<Expr>, funcs: &[Func]) -> bool {
    let bodies: Vec<Option<Node>> = funcs
        .iter()
        .map(|f| match f.body {
            Body::Expr(e) if f.nlocals == f.params.len() + 1 && !f.params.contains(&0) && inlinable(nodes, e, f) => {
                Some(e)
            }
            _ => None,
        })
        .collect();
    let mut changed = false;
    for n in 0..nodes.len() {
        let (f, args) = match &nodes[n] {
            Expr::Fn(f, args) => (*f as usize, args.clone()),
            _ => continue,
        };
        let (func, Some(body)) = (&funcs[f], bodies[f]) else {
            continue;
        };
        let plain = |a: &Node| matches!(nodes[*a as usize], Expr::Lit(_) | Expr::Local(_, false));
        if args.len() != func.params.len() || !(args.iter().all(plain) || evaluated_in_place(nodes, body, func, &args))
        {
            continue;
        }
        let mut map: Vec<(u16, Node)> = func.params.iter().copied().zip(args.iter().copied()).collect();
        nodes.push(Expr::Local(0, false));
        map.push((0, (nodes.len() - 1) as Node));
        let passed = args
            .iter()
            .filter_map(|&a| match nodes[a as usize] {
                Expr::Local(slot, _) => Some(slot),
                _ => None,
            })
            .collect();
        let root = substitute(nodes, body, &map);
        nodes[n] = Expr::Inline(root, passed);
        changed = true;
    }
    changed
}

fn l_var(vars: &[Variable], name: &str) -> R<u16> {
    match vars.iter().position(|v| &*v.name == name) {
        Some(i) => Ok(i as u16),
        None => bad(format!("no variable '{name}'")),
    }
}

fn variables(l: &mut Loader, j: &J) -> R<Vec<Variable>> {
    let mut out = vec![];
    for v in arr(j, "variables")? {
        let name: Rc<str> = s(&v[0], "a variable's name")?.into();
        let initial = l.value(&v[1])?;
        let members = match v.get(2) {
            Some(J::Array(m)) => Some(
                m.iter()
                    .map(|x| Ok(l.intern(s(x, "a member")?)))
                    .collect::<R<Vec<_>>>()?,
            ),
            _ => None,
        };
        let bounds = match v.get(3) {
            Some(J::Array(b)) if b.len() == 2 => Some((int(&b[0], "a min:")?, int(&b[1], "a max:")?)),
            None | Some(J::Null) => None,
            _ => return bad(format!("the bounds of '{name}' are not [min, max]")),
        };
        let enum_name: Rc<str> = match v.get(4) {
            Some(J::String(e)) => e.as_str().into(),
            _ => "".into(),
        };
        out.push(Variable {
            name,
            initial,
            members,
            bounds,
            enum_name,
        });
    }
    Ok(out)
}

impl Game {
    /// Read and verify an IR; a bad one is refused with one line.
    pub fn load(bytes: &[u8]) -> R<Game> {
        let j: J = serde_json::from_slice(bytes).map_err(|e| format!("not an IR: {e}"))?;
        let version = get(&j, "version")?.as_i64().ok_or("its version is not a number")?;
        if version != IR_VERSION {
            return bad(format!("IR version {version}, this VM reads version {IR_VERSION}"));
        }
        let mut l = Loader {
            strings: vec![],
            ids: FxMap::default(),
            nodes: vec![],
            var_index: HashMap::new(),
            pvar_index: HashMap::new(),
            attr_index: HashMap::new(),
            nprocs: 0,
            nfuncs: 0,
            ntables: 0,
            nlocals: 0,
            nchoices: 0,
        };
        let empty_string = l.intern("");
        let card_ids = arr(get(&j, "card_ids")?, "card_ids")?;
        let cards: Vec<u32> = card_ids
            .iter()
            .map(|c| Ok(l.intern(s(c, "a card id")?)))
            .collect::<R<_>>()?;
        let ncards = cards.len();
        if ncards > u32::MAX as usize / 2 {
            return bad("too many cards");
        }
        let mut attrs = vec![];
        let mut attr_names = HashMap::new();
        for (name, column) in get(&j, "attributes")?.as_object().ok_or("attributes is not a map")? {
            let column = arr(column, "an attribute column")?;
            if column.len() != ncards {
                return bad(format!(
                    "attribute '{name}' has {} values for {ncards} cards",
                    column.len()
                ));
            }
            l.attr_index.insert(name.clone(), attrs.len() as u16);
            let id = l.intern(name);
            attr_names.insert(id, attrs.len() as u16);
            attrs.push(column.iter().map(|v| l.value(v)).collect::<R<Vec<_>>>()?);
        }
        let vars = variables(&mut l, get(&j, "variables")?)?;
        let pvars = variables(&mut l, get(&j, "player_variables")?)?;
        for (i, v) in vars.iter().enumerate() {
            l.var_index.insert(v.name.to_string(), i as u16);
        }
        for (i, v) in pvars.iter().enumerate() {
            l.pvar_index.insert(v.name.to_string(), i as u16);
        }
        let min_players = u(get(&j, "min_players")?, "min_players")? as usize;
        let max_players = u(get(&j, "max_players")?, "max_players")? as usize;
        if min_players == 0 || max_players < min_players || max_players > 30 {
            return bad("the numbers of players are out of range");
        }
        // Zones of every size first: their names are texts like any other.
        let seats_j = get(&j, "seats")?;
        let mut seats: Vec<Option<Seats>> = (0..=max_players).map(|_| None).collect();
        for (n, sj) in seats_j.as_object().ok_or("seats is not a map")? {
            let n: usize = n.parse().map_err(|_| "a number of players is not a number")?;
            if n < min_players || n > max_players {
                return bad(format!("seats for {n} players"));
            }
            let zones: Vec<u32> = arr(get(sj, "zones")?, "zones")?
                .iter()
                .map(|z| Ok(l.intern(s(z, "a zone")?)))
                .collect::<R<_>>()?;
            let nz = zones.len();
            let masks: Vec<u32> = arr(get(sj, "masks")?, "masks")?
                .iter()
                .map(|m| Ok(u(m, "a mask")? as u32))
                .collect::<R<_>>()?;
            let tops: Vec<bool> = arr(get(sj, "tops")?, "tops")?
                .iter()
                .map(|t| t.as_bool().unwrap_or(false))
                .collect();
            let mut start = vec![];
            let mut placed = vec![false; ncards];
            for z in arr(get(sj, "start")?, "start")? {
                let mut cards = vec![];
                for c in arr(&z, "a zone's cards")? {
                    let c = u(&c, "a card")? as usize;
                    if c >= ncards || placed[c] {
                        return bad("the start places a card twice or one that is not there");
                    }
                    placed[c] = true;
                    cards.push(c as u32);
                }
                start.push(cards);
            }
            if placed.iter().any(|p| !p) && crate::starts::fixed(&j) {
                return bad("the start leaves a card nowhere");
            }
            let know: Vec<u32> = arr(get(sj, "know")?, "know")?
                .iter()
                .map(|m| Ok(u(m, "a mask")? as u32))
                .collect::<R<_>>()?;
            let mut teams = vec![];
            for t in arr(get(sj, "teams")?, "teams")? {
                let team: Vec<u32> = arr(&t, "a team")?
                    .iter()
                    .map(|p| Ok(u(p, "a seat")? as u32))
                    .collect::<R<_>>()?;
                if team.iter().any(|&p| p as usize >= n) {
                    return bad("a team names a seat that is not there");
                }
                teams.push(team);
            }
            if masks.len() != nz || tops.len() != nz || start.len() != nz || know.len() != ncards || teams.len() != n {
                return bad(format!("the tables for {n} players do not match the zones and cards"));
            }
            let unseen = (0..n)
                .map(|p| (0..nz as u32).filter(|&z| masks[z as usize] & (1 << p) == 0).collect())
                .collect();
            seats[n] = Some(Seats {
                scored: vec![((1u64 << n) - 1) as u32; nz],
                zones,
                masks,
                unseen,
                tops,
                start,
                know,
                teams,
                slot: vec![],
            });
        }
        let mut families = FxMap::default();
        for (name, f) in get(&j, "zone_families")?
            .as_object()
            .ok_or("zone_families is not a map")?
        {
            let fam = l.intern(name);
            let family = match s(get(f, "by")?, "a family's key")? {
                "player" => Family::Player((0..max_players).map(|p| l.intern(&format!("{name}:{p}"))).collect()),
                _ => {
                    let mut keys = FxMap::default();
                    for k in arr(get(f, "keys")?, "keys")? {
                        let k = s(&k, "a key")?;
                        let key = l.intern(k);
                        keys.insert(key, l.intern(&format!("{name}:{k}")));
                    }
                    Family::Text(keys)
                }
            };
            families.insert(fam, family);
        }
        let procs_j = arr(get(&j, "procedures")?, "procedures")?;
        let funcs_j = arr(get(&j, "functions")?, "functions")?;
        l.nprocs = procs_j.len();
        l.nfuncs = funcs_j.len();
        let mut tables = vec![];
        for t in arr(get(&j, "tables")?, "tables")? {
            let mut entries = vec![];
            for (k, v) in t.as_object().ok_or("a table is not a map")? {
                let key: J = serde_json::from_str(k).map_err(|_| "a table's key is not JSON")?;
                let key = arr(&key, "a table's key")?;
                let mut ids = [NO_PART; 4];
                for (i, part) in key.iter().take(4).enumerate() {
                    ids[i] = l.intern(s(part, "a table's key")?);
                }
                let value = l.value(v)?;
                entries.push((ids, value));
            }
            tables.push(Table::new(entries));
        }
        l.ntables = tables.len();
        let mut misses = vec![];
        for m in arr(get(&j, "misses")?, "misses")? {
            let mut checks = vec![];
            for c in &arr(get(&m, "checks")?, "a miss's checks")? {
                checks.push(usize::from(small(u(c, "a checked argument")?, 3, "checked argument")?));
            }
            let default = match m.get("default") {
                Some(v) => Some(l.value(v)?),
                None => None,
            };
            let fault = match m.get("fault") {
                Some(f) => Some(f.as_str().ok_or("a miss's fault is not a text")?.to_string()),
                None => None,
            };
            let stand_in = match m.get("stand_in") {
                Some(pair) => {
                    let pair = arr(pair, "a miss's stand-in")?;
                    let (Some(i), Some(text)) = (pair.first(), pair.get(1)) else {
                        return bad("a miss's stand-in is not [argument, text]".to_string());
                    };
                    let V::Str(text) = l.value(text)? else {
                        return bad("a miss's stand-in is not a text".to_string());
                    };
                    Some((
                        usize::from(small(u(i, "a stand-in's argument")?, 3, "stand-in's argument")?),
                        text,
                    ))
                }
                None => None,
            };
            misses.push(Miss {
                checks,
                default,
                fault,
                stand_in,
            });
        }
        if misses.len() != tables.len() {
            return bad("the tables' misses do not match the tables".to_string());
        }
        let mut board_spaces = FxMap::default();
        for (board, spaces) in get(&j, "board_spaces")?
            .as_object()
            .ok_or("board_spaces is not a map")?
        {
            let mut ids = vec![];
            for sp in &arr(spaces, "a board's spaces")? {
                ids.push(l.intern(s(sp, "a space")?));
            }
            board_spaces.insert(l.intern(board), ids);
        }
        let mut board_names = FxMap::default();
        for (board, name) in get(&j, "board_names")?.as_object().ok_or("board_names is not a map")? {
            board_names.insert(l.intern(board), l.intern(s(name, "a board's name")?));
        }
        let mut procs = vec![];
        for p in &procs_j {
            let locals = l.locals(get(p, "locals")?)?;
            l.nlocals = locals.len();
            if locals.len() < 2 {
                return bad("a procedure lacks 'me' and its result");
            }
            let params = arr(get(p, "params")?, "params")?
                .iter()
                .map(|x| l.local(x))
                .collect::<R<Vec<_>>>()?;
            let code = l.code(get(p, "code")?)?;
            let place: Vec<(u32, u32)> = arr(get(p, "where")?, "where")?
                .iter()
                .map(|w| Ok((u(&w[0], "a line")? as u32, u(&w[1], "a column")? as u32)))
                .collect::<R<_>>()?;
            if place.len() != code.len() || code.is_empty() {
                return bad("a procedure's places do not match its code");
            }
            let local_index: HashMap<Rc<str>, u16> =
                locals.iter().enumerate().map(|(i, n)| (n.clone(), i as u16)).collect();
            let result = local_index.get("$result").copied().unwrap_or(1);
            procs.push(Proc {
                name: s(get(p, "name")?, "a name")?.into(),
                path: s(get(p, "path")?, "a path")?.into(),
                params,
                code,
                place,
                locals,
                local_index,
                result,
            });
        }
        let mut funcs = vec![];
        for f in &funcs_j {
            let locals = l.locals(get(f, "locals")?)?;
            l.nlocals = locals.len();
            if locals.is_empty() {
                return bad("a function lacks 'me'");
            }
            let params = arr(get(f, "params")?, "params")?
                .iter()
                .map(|x| l.local(x))
                .collect::<R<Vec<_>>>()?;
            let body = if let Some(e) = f.get("expr") {
                Body::Expr(l.expr(e)?)
            } else {
                Body::Code(l.code(get(f, "code")?)?)
            };
            funcs.push(Func {
                params,
                nlocals: locals.len(),
                body,
            });
        }
        let scorers = |key: &str, l: &mut Loader| -> R<Vec<Scorer>> {
            let mut out = vec![];
            for sc in arr(get(&j, key)?, key)? {
                let locals = l.locals(get(&sc, "locals")?)?;
                l.nlocals = locals.len();
                if locals.len() < 2 {
                    return bad("a scorer lacks 'me' and 'p'");
                }
                let w = get(&sc, "where")?; // indexed as JSON: a part it lacks reads as null, refused below
                out.push(Scorer {
                    id: s(get(&sc, "id")?, "an id")?.to_string(),
                    place: (
                        s(&w[0], "a path")?.into(),
                        u(&w[1], "a line")? as u32,
                        u(&w[2], "a column")? as u32,
                    ),
                    expr: l.expr(get(&sc, "expr")?)?,
                    nlocals: locals.len(),
                });
            }
            Ok(out)
        };
        let scoring = scorers("scoring", &mut l)?;
        let tiebreakers = scorers("tiebreakers", &mut l)?;
        let house = scorers("house", &mut l)?.pop();
        let standing = scorers("standing", &mut l)?.pop();
        let mut dice = vec![];
        for faces in arr(get(&j, "die_faces")?, "die_faces")? {
            dice.push(match faces {
                J::Null => None,
                faces => {
                    let faces = arr(&faces, "a die's faces")?;
                    if faces.is_empty() {
                        return bad("a die has no faces");
                    }
                    Some(faces.iter().map(|f| l.value(f)).collect::<R<Shared<V>>>()?)
                }
            });
        }
        if !dice.is_empty() && dice.len() != ncards {
            return bad(format!("die_faces has {} entries for {ncards} cards", dice.len()));
        }
        let effects = arr(get(&j, "effects")?, "effects")?
            .iter()
            .map(|e| {
                if e.is_null() {
                    Ok(None)
                } else {
                    Ok(Some(small(u(e, "an effect")?, procs.len(), "effect")?))
                }
            })
            .collect::<R<Vec<_>>>()?;
        if effects.len() != ncards {
            return bad("effects do not match the cards");
        }
        let nstrings = l.strings.len();
        for seat in seats.iter_mut().flatten() {
            seat.slot = vec![u32::MAX; nstrings];
            for (i, &z) in seat.zones.iter().enumerate() {
                seat.slot[z as usize] = i as u32;
            }
        }
        if !procs.iter().any(|p| &*p.name == "play") {
            return bad("the IR has no 'play' program");
        }
        let (mut scored_vars, mut scored_pvars) = (vec![true; vars.len()], vec![Readers::Everyone; pvars.len()]);
        if let Some(reads) = j.get("score_reads").filter(|r| !r.is_null()) {
            let names = |key: &str| -> R<Vec<String>> {
                arr(get(reads, key)?, key)?
                    .iter()
                    .map(|n| Ok(s(n, "a name")?.to_string()))
                    .collect()
            };
            let (read_families, own_families) = (names("families")?, names("own_families")?);
            let (read_vars, read_pvars) = (names("variables")?, names("player_variables")?);
            let own_pvars = names("own_player_variables")?;
            scored_vars = vars.iter().map(|v| read_vars.iter().any(|n| **n == *v.name)).collect();
            scored_pvars = pvars
                .iter()
                .map(|v| {
                    match (
                        own_pvars.iter().any(|n| **n == *v.name),
                        read_pvars.iter().any(|n| **n == *v.name),
                    ) {
                        (true, _) => Readers::Owner,
                        (false, true) => Readers::Everyone,
                        _ => Readers::Nobody,
                    }
                })
                .collect();
            // the zones of the player families by their names: the seat each belongs to
            let owners: FxMap<u32, u32> = families
                .values()
                .filter_map(|f| match f {
                    Family::Player(zones) => Some(zones),
                    Family::Text(_) => None,
                })
                .flat_map(|zones| zones.iter().enumerate().map(|(q, &z)| (z, q as u32)))
                .collect();
            for (n, seat) in seats.iter_mut().enumerate() {
                let Some(seat) = seat else { continue };
                let everyone = ((1u64 << n) - 1) as u32;
                seat.scored = seat
                    .zones
                    .iter()
                    .map(|&z| {
                        let name = &*l.strings[z as usize];
                        let family = name.split_once(':').map_or(name, |(f, _)| f);
                        match owners.get(&z) {
                            Some(&q) if own_families.iter().any(|f| f == family) => {
                                1u32.checked_shl(q).unwrap_or(everyone)
                            }
                            _ if read_families.iter().any(|f| f == family) => everyone,
                            _ => 0,
                        }
                    })
                    .collect();
            }
        }
        let dj = get(&j, "determinize")?;
        let looks: Vec<u32> = arr(get(dj, "looks")?, "looks")?
            .iter()
            .map(|x| Ok(u(x, "a look")? as u32))
            .collect::<R<_>>()?;
        if looks.len() != ncards {
            return bad("looks do not match the cards");
        }
        let mut backs: FxMap<u32, u32> = FxMap::default();
        let looks: Vec<u32> = looks
            .iter()
            .map(|&look| {
                let next = backs.len() as u32;
                *backs.entry(look).or_insert(next)
            })
            .collect();
        let private = arr(get(dj, "private")?, "private")?
            .iter()
            .map(|x| l.pvar(s(x, "a player variable")?))
            .collect::<R<Vec<_>>>()?;
        let var_shapes = l.shapes(get(dj, "variables")?, |n| l_var(&vars, n))?;
        let pvar_shapes = l.shapes(get(dj, "player_variables")?, |n| l_var(&pvars, n))?;
        let lj = get(dj, "locals")?;
        let mut local_shapes = vec![];
        for p in &procs {
            local_shapes.push(match lj.get(&*p.name) {
                Some(x) => l.shapes(x, |n| {
                    p.local_index
                        .get(n)
                        .copied()
                        .ok_or_else(|| format!("'{}' has no local '{n}'", p.name))
                })?,
                None => vec![],
            });
        }
        let mut greedy = vec![];
        for v in arr(get(&j, "greedy")?, "greedy")? {
            let locals = l.locals(v.get(2).ok_or("a greedy value lacks its locals")?)?;
            if locals.len() < 4 {
                return bad("a greedy value lacks 'me', 'p', 'action' and 'choice'");
            }
            l.nlocals = locals.len();
            let kind: Rc<str> = s(v.get(0).ok_or("a greedy value lacks its kind")?, "a kind")?.into();
            let expr = l.expr(v.get(1).ok_or("a greedy value lacks its expression")?)?;
            greedy.push(Greedy {
                kind,
                expr,
                nlocals: locals.len(),
                reads_action: false,
            });
        }
        inline_all_calls(&mut l.nodes, &funcs);
        for func in &mut funcs {
            share_repeats(&mut l.nodes, func);
        }
        for g in &mut greedy {
            g.reads_action = reads_local(&l.nodes, g.expr, ACTION_SLOT);
        }
        let code = crate::compile::Code::new(&l.nodes, &families);
        let det = Det {
            looks,
            backs: backs.len(),
            private,
            vars: var_shapes,
            pvars: pvar_shapes,
            locals: local_shapes,
        };
        let keys = l
            .strings
            .iter()
            .map(|t| {
                let key = t.split_once(':').map_or("", |(_, k)| k);
                l.ids.get(key).copied().unwrap_or(u32::MAX)
            })
            .collect();
        let proc_index = procs
            .iter()
            .enumerate()
            .map(|(i, p)| (p.name.clone(), i as u16))
            .collect();
        Ok(Game {
            id: s(get(&j, "game")?, "game")?.to_string(),
            variant: get(&j, "variant")?.as_str().map(str::to_string),
            rules: s(get(&j, "rules")?, "rules")?.to_string(),
            min_players,
            max_players,
            step_budget: u(get(&j, "step_budget")?, "step_budget")?,
            ties_draw: get(&j, "ties")?.as_str() == Some("draw"),
            signs: match j.get("signs") {
                None => vec![1; tiebreakers.len() + 1],
                Some(signs) => arr(signs, "signs")?
                    .iter()
                    .map(|x| int(x, "a sign"))
                    .collect::<R<_>>()?,
            },
            default_end: s(get(&j, "default_end")?, "default_end")?.into(),
            strings: l.strings,
            string_ids: l.ids,
            keys,
            none: V::None,
            cards,
            attrs,
            effects,
            vars,
            pvars,
            families,
            seats,
            deal: crate::starts::read(&j, &funcs, ncards)?,
            procs,
            proc_index,
            funcs,
            scoring,
            tiebreakers,
            house,
            standing,
            dice,
            code,
            nodes: l.nodes,
            tables,
            misses,
            board_spaces,
            board_names,
            attr_names,
            empty_string,
            scored_vars,
            scored_pvars,
            det,
            greedy,
            seat_names: names(&j, "seat_names", "a seat's name")?,
            card_names: names(&j, "card_names", "a card's name")?,
            ids: std::cell::RefCell::default(),
            joined: std::cell::RefCell::default(),
            joined_made: std::cell::RefCell::default(),
        })
    }

    /// A text as a value: the table's id when the game knows it, else a text of its own.
    pub fn text_value(&self, text: &str) -> V {
        match self.string_ids.get(text) {
            Some(&id) => V::Str(id),
            None => V::Text(text.into()),
        }
    }

    pub fn text(&self, id: u32) -> &str {
        &self.strings[id as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn function(param: u16, body: Node) -> Func {
        Func {
            params: vec![param],
            nlocals: 2,
            body: Body::Expr(body),
        }
    }

    /// Whether no call is left under `e` (each one replaced by its function's expression).
    fn calls_none(nodes: &[Expr], e: Node) -> bool {
        match &nodes[e as usize] {
            Expr::Fn(..) => false,
            other => {
                let mut none = true;
                rebuild(other, &mut |c| {
                    none = none && calls_none(nodes, c);
                    c
                });
                none
            }
        }
    }

    #[test]
    fn a_small_function_that_calls_a_small_function_is_inlined_whole_and_reads_the_callers_local_first() {
        let mut nodes = vec![
            Expr::Local(1, false), // 0: inner's parameter
            Expr::Not(0),          // 1: inner(s) = not s
            Expr::Local(1, false), // 2: outer's parameter
            Expr::Fn(0, vec![2]),  // 3: outer(x) = inner(x)
            Expr::Local(3, false), // 4: the caller's local
            Expr::Fn(1, vec![4]),  // 5: outer(y)
        ];
        inline_all_calls(&mut nodes, &[function(1, 1), function(1, 3)]);
        let Expr::Inline(root, passed) = &nodes[5] else {
            panic!("outer(y) is not inlined: {:?}", nodes[5])
        };
        assert_eq!(passed, &vec![3]);
        assert!(calls_none(&nodes, *root), "{nodes:?}");
        let Expr::Inline(_, inner) = &nodes[*root as usize] else {
            panic!("inner(y) is not inlined in outer(y): {nodes:?}")
        };
        assert_eq!(inner, &vec![3]);
    }

    #[test]
    fn a_call_given_an_expression_is_inlined_only_where_the_expression_is_read_first_and_once() {
        let mut nodes = vec![
            Expr::Local(1, false),         // 0: place's parameter
            Expr::Op(Op::ZoneOf, vec![0]), // 1
            Expr::Op(Op::KeyOf, vec![1]),  // 2: place(c) = key_of(zone_of(c))
            Expr::Local(1, false),         // 3: twice's parameter
            Expr::Bin(Bin::Add, 3, 3),     // 4: twice(k) = k + k
            Expr::Local(2, false),         // 5: the caller's local
            Expr::Op(Op::Top, vec![5]),    // 6: top(z)
            Expr::Fn(0, vec![6]),          // 7: place(top(z))
            Expr::Op(Op::Top, vec![5]),    // 8: top(z)
            Expr::Fn(1, vec![8]),          // 9: twice(top(z))
        ];
        inline_all_calls(&mut nodes, &[function(1, 2), function(1, 4)]);
        let Expr::Inline(root, passed) = &nodes[7] else {
            panic!("place(top(z)) is not inlined: {:?}", nodes[7])
        };
        assert!(passed.is_empty());
        let Expr::Op(Op::KeyOf, zone) = &nodes[*root as usize] else {
            panic!("{nodes:?}")
        };
        assert!(
            matches!(&nodes[zone[0] as usize], Expr::Op(Op::ZoneOf, card) if card == &vec![6]),
            "top(z) is not read where c was: {nodes:?}"
        );
        assert!(
            matches!(nodes[9], Expr::Fn(1, _)),
            "twice(top(z)) would evaluate top(z) twice"
        );
    }

    #[test]
    fn a_call_given_an_expression_before_a_local_is_not_inlined() {
        let mut nodes = vec![
            Expr::Local(1, false),      // 0: first's parameter a
            Expr::Local(2, false),      // 1: first's parameter b
            Expr::Bin(Bin::Add, 0, 1),  // 2: first(a, b) = a + b
            Expr::Local(3, false),      // 3: the caller's local
            Expr::Op(Op::Top, vec![3]), // 4: top(z)
            Expr::Fn(0, vec![4, 3]),    // 5: first(top(z), z): z is read after top(z) by the call
            Expr::Lit(V::Int(1)),       // 6
            Expr::Fn(0, vec![4, 6]),    // 7: first(top(z), 1)
        ];
        let first = Func {
            params: vec![1, 2],
            nlocals: 3,
            body: Body::Expr(2),
        };
        inline_all_calls(&mut nodes, &[first]);
        assert!(matches!(nodes[5], Expr::Fn(0, _)), "{:?}", nodes[5]);
        assert!(matches!(nodes[7], Expr::Inline(..)), "{:?}", nodes[7]);
    }

    /// The slots of the `Memo` nodes under `e`, in the order met.
    fn memos(nodes: &[Expr], e: Node, out: &mut Vec<u16>) {
        if let Expr::Memo(slot, _) = nodes[e as usize] {
            out.push(slot);
        }
        rebuild(&nodes[e as usize], &mut |c| {
            memos(nodes, c, out);
            c
        });
    }

    #[test]
    fn an_expression_a_function_repeats_over_its_parameters_is_kept_once_per_call() {
        let mut nodes = vec![
            Expr::Local(1, false),       // 0: the parameter p
            Expr::Member(9, 0),          // 1: hand(p)
            Expr::Op(Op::Top, vec![1]),  // 2: top(hand(p))
            Expr::Lit(V::Int(1)),        // 3
            Expr::Bin(Bin::Eq, 2, 3),    // 4: top(hand(p)) == 1
            Expr::Local(1, false),       // 5: p again
            Expr::Member(9, 5),          // 6
            Expr::Op(Op::Top, vec![6]),  // 7: top(hand(p)) again
            Expr::Lit(V::Int(2)),        // 8
            Expr::Bin(Bin::Eq, 7, 8),    // 9
            Expr::Bin(Bin::Or, 4, 9),    // 10: the body
            Expr::Local(2, false),       // 11: a local that is no parameter
            Expr::Member(9, 11),         // 12
            Expr::Op(Op::Top, vec![12]), // 13
            Expr::Member(9, 11),         // 14
            Expr::Op(Op::Top, vec![14]), // 15
            Expr::Bin(Bin::Eq, 13, 15),  // 16: top(hand(x)) == top(hand(x)), x bound by a comprehension
        ];
        let mut f = function(1, 10);
        share_repeats(&mut nodes, &mut f);
        let Body::Expr(root) = f.body else { panic!() };
        let mut kept = vec![];
        memos(&nodes, root, &mut kept);
        assert_eq!(kept, vec![2, 2], "{nodes:?}");
        assert_eq!(f.nlocals, 3);
        let mut g = function(1, 16);
        share_repeats(&mut nodes, &mut g);
        assert!(matches!(g.body, Body::Expr(16)) && g.nlocals == 2);
        nodes.push(Expr::Cond(3, 2, 7)); // 17: top(hand(p)) if 1 else top(hand(p)): never both
        let mut h = function(1, 17);
        share_repeats(&mut nodes, &mut h);
        assert!(matches!(h.body, Body::Expr(17)) && h.nlocals == 2);
    }

    #[test]
    fn an_expression_over_the_parameters_in_a_comprehension_is_kept_once_per_call() {
        let mut nodes = vec![
            Expr::Local(1, false),      // 0: the parameter p
            Expr::Member(9, 0),         // 1: hand(p)
            Expr::Op(Op::Top, vec![1]), // 2: top(hand(p))
            Expr::Local(2, false),      // 3: x, bound by the comprehension
            Expr::Bin(Bin::Add, 2, 3),  // 4: top(hand(p)) + x
            Expr::Lit(V::Int(3)),       // 5: the items
            Expr::Comp {
                var: 2,
                source: 5,
                element: 4,
                cond: None,
            }, // 6: [top(hand(p)) + x for x in 3]
            Expr::Comp {
                var: 2,
                source: 2,
                element: 3,
                cond: None,
            }, // 7: [x for x in top(hand(p))]: the items are worked out once
            Expr::Member(9, 3),         // 8: hand(x)
            Expr::Op(Op::Top, vec![8]), // 9: top(hand(x))
            Expr::Comp {
                var: 2,
                source: 5,
                element: 9,
                cond: None,
            }, // 10: [top(hand(x)) for x in 3]: changes with x
        ];
        let mut f = function(1, 6);
        share_repeats(&mut nodes, &mut f);
        let Body::Expr(root) = f.body else { panic!() };
        let mut kept = vec![];
        memos(&nodes, root, &mut kept);
        assert_eq!(kept, vec![2], "{nodes:?}");
        for body in [7, 10] {
            let mut g = function(1, body);
            share_repeats(&mut nodes, &mut g);
            assert!(matches!(g.body, Body::Expr(b) if b == body) && g.nlocals == 2, "{body}");
        }
    }

    #[test]
    fn a_function_that_calls_itself_is_never_inlined() {
        let mut nodes = vec![
            Expr::Local(1, false), // 0: again's parameter
            Expr::Fn(0, vec![0]),  // 1: again(x) = again(x)
            Expr::Local(2, false), // 2: the caller's local
            Expr::Fn(0, vec![2]),  // 3: again(y)
        ];
        inline_all_calls(&mut nodes, &[function(1, 1)]);
        assert!(matches!(nodes[3], Expr::Fn(0, _)), "{:?}", nodes[3]);
        assert_eq!(nodes.len(), 4);
    }
}
