//! The operations on text (ops.py's `text`, `number`, `word`) and `sorted` without a key, with the
//! reference's meaning: Python's `str`, `str.split` and `sorted`, and its faults.

use crate::game::{Game, Node, Op};
use crate::state::{failed, py_repr, rule, Res, State, MAX_SIZE};
use crate::value::V;

/// Python's `str.isspace`: Unicode's white space and the four separators Python counts too.
fn space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

fn oversized(size: String) -> String {
    format!(
        "a text of {size} characters is over the size budget of {}: does a loop make it grow without end?",
        crate::eval::grouped(MAX_SIZE)
    )
}

impl State {
    /// `text`, `number`, `word` or `sorted`.
    pub(crate) fn text_op(&mut self, g: &Game, op: Op, args: &[Node], env: &mut [V]) -> Res<V> {
        let values = self.all_values(g, args, env)?;
        let first = values.first().cloned().unwrap_or(V::None);
        match op {
            Op::Text => self.written(&first),
            Op::Number => self.number(&first),
            Op::Word => {
                let text = match &first {
                    V::None | V::Unset => "",
                    other => self.text_of(other),
                };
                let index = match values.get(1) {
                    Some(V::Int(i)) => *i,
                    Some(V::Bool(b)) => i64::from(*b),
                    other => {
                        let kind = other.map_or("none", V::kind);
                        return failed(format!("'<=' cannot compare a number and {kind}"));
                    }
                };
                let word = text.split(space).filter(|w| !w.is_empty()).nth(index.max(0) as usize);
                Ok(match word {
                    Some(w) if index >= 0 => g.text_value(w),
                    _ => g.text_value(""),
                })
            }
            _ => match &first {
                V::List(items) => {
                    let order = self.order(items, "sorted")?;
                    Ok(V::list(order.into_iter().map(|i| items[i].clone()).collect()))
                }
                other => failed(format!("{} is not a list", other.kind())),
            },
        }
    }

    /// `text(value)`: Python's `str` of the value, "none" for none.
    fn written(&self, v: &V) -> Res<V> {
        let text = match v {
            V::None | V::Unset => return Ok(self.game.text_value("none")),
            V::Str(_) | V::Text(_) => return Ok(v.clone()),
            V::Int(i) => i.to_string(),
            V::Bool(b) => if *b { "True" } else { "False" }.to_string(),
            other => self.repr(other),
        };
        let size = text.chars().count();
        if size > MAX_SIZE {
            let size = if matches!(v, V::List(_)) && self.room_for_text(v, MAX_SIZE as i64) < 0 {
                format!("more than {}", crate::eval::grouped(MAX_SIZE))
            } else {
                crate::eval::grouped(size)
            };
            return rule(oversized(size));
        }
        Ok(self.game.text_value(&text))
    }

    /// `room` less a lower bound of the length of `v` as text (its texts' characters, one for any other item,
    /// and a list's items), as the reference counts it before writing a list: it stops once below 0.
    fn room_for_text(&self, v: &V, room: i64) -> i64 {
        match v {
            V::Str(_) | V::Text(_) => room - self.text_of(v).chars().count() as i64,
            V::List(items) => {
                let mut room = room - items.len() as i64;
                for item in items.iter() {
                    if room < 0 {
                        break;
                    }
                    room = self.room_for_text(item, room);
                }
                room
            }
            _ => room - 1,
        }
    }

    /// `number(text)`: the whole number a text writes (spaces around it, a minus before it).
    fn number(&self, v: &V) -> Res<V> {
        let text = match v {
            V::None | V::Unset => return rule("number(): no text given"),
            V::Str(_) | V::Text(_) => self.text_of(v),
            other => {
                return failed(format!(
                    "AttributeError: '{}' object has no attribute 'strip'",
                    py_type(other)
                ))
            }
        };
        let digits = text.trim_matches(space);
        let bare = digits.trim_start_matches('-');
        if bare.is_empty() || !bare.bytes().all(|b| b.is_ascii_digit()) || digits.chars().count() > 18 {
            let quoted: String = self.quoted(v).chars().take(40).collect();
            return rule(format!("number(): {quoted} is not a whole number"));
        }
        if digits.len() - bare.len() > 1 {
            return failed(format!(
                "ValueError: invalid literal for int() with base 10: {}",
                py_repr(digits)
            ));
        }
        digits
            .parse::<i64>()
            .map(V::Int)
            .or_else(|_| failed(format!("{} is not a number", py_repr(digits))))
    }
}

/// The name of a value's Python type, as Python's messages give it.
fn py_type(v: &V) -> &'static str {
    match v {
        V::Int(_) => "int",
        V::Bool(_) => "bool",
        V::List(_) | V::Iter(..) => "list",
        V::Rec(_) => "dict",
        V::Str(_) | V::Text(_) => "str",
        V::None | V::Unset => "NoneType",
    }
}
