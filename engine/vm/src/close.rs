//! The closest known name to a misspelt one, as the reference's hints find it (Python's
//! `difflib.get_close_matches(word, names, n=1, cutoff=0.6)`): the same ratio of matching characters, so a
//! fault's "did you mean" names the same thing on both backends.

use std::collections::HashMap;

/// The name among `names` most like `word` (ratio ≥ 0.6; equal ratios: the greatest name), if any.
pub fn close_match<'a>(word: &str, names: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let b: Vec<char> = word.chars().collect();
    let b2j = indexes(&b);
    let mut best: Option<(f64, &str)> = None;
    for name in names {
        let a: Vec<char> = name.chars().collect();
        let r = ratio(&a, &b, &b2j);
        if r >= 0.6 && best.is_none_or(|(s, n)| (r, name) > (s, n)) {
            best = Some((r, name));
        }
    }
    best.map(|(_, name)| name)
}

/// Where each character of `b` stands, without the popular ones of a long `b` (difflib's autojunk).
fn indexes(b: &[char]) -> HashMap<char, Vec<usize>> {
    let mut b2j: HashMap<char, Vec<usize>> = HashMap::new();
    for (j, &c) in b.iter().enumerate() {
        b2j.entry(c).or_default().push(j);
    }
    if b.len() >= 200 {
        let most = b.len() / 100 + 1;
        b2j.retain(|_, js| js.len() <= most);
    }
    b2j
}

/// SequenceMatcher's `ratio()`: twice the characters of the matching blocks over both lengths.
fn ratio(a: &[char], b: &[char], b2j: &HashMap<char, Vec<usize>>) -> f64 {
    let total = a.len() + b.len();
    if total == 0 {
        return 1.0;
    }
    let mut matched = 0;
    let mut queue = vec![(0, a.len(), 0, b.len())];
    while let Some((alo, ahi, blo, bhi)) = queue.pop() {
        let (i, j, k) = longest_match(a, b, b2j, alo, ahi, blo, bhi);
        if k > 0 {
            matched += k;
            if alo < i && blo < j {
                queue.push((alo, i, blo, j));
            }
            if i + k < ahi && j + k < bhi {
                queue.push((i + k, ahi, j + k, bhi));
            }
        }
    }
    2.0 * matched as f64 / total as f64
}

/// SequenceMatcher's `find_longest_match` with no junk: the longest block, the earliest in `a`, then in `b`,
/// widened over the popular characters left out of `b2j`.
fn longest_match(
    a: &[char],
    b: &[char],
    b2j: &HashMap<char, Vec<usize>>,
    alo: usize,
    ahi: usize,
    blo: usize,
    bhi: usize,
) -> (usize, usize, usize) {
    let (mut besti, mut bestj, mut bestsize) = (alo, blo, 0);
    let mut j2len: HashMap<usize, usize> = HashMap::new();
    for (i, c) in a.iter().enumerate().take(ahi).skip(alo) {
        let mut next: HashMap<usize, usize> = HashMap::new();
        for &j in b2j.get(c).map_or(&[][..], Vec::as_slice) {
            if j < blo {
                continue;
            }
            if j >= bhi {
                break;
            }
            let k = if j > 0 {
                j2len.get(&(j - 1)).copied().unwrap_or(0)
            } else {
                0
            } + 1;
            next.insert(j, k);
            if k > bestsize {
                (besti, bestj, bestsize) = (i + 1 - k, j + 1 - k, k);
            }
        }
        j2len = next;
    }
    while besti > alo && bestj > blo && a[besti - 1] == b[bestj - 1] {
        (besti, bestj, bestsize) = (besti - 1, bestj - 1, bestsize + 1);
    }
    while besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] == b[bestj + bestsize] {
        bestsize += 1;
    }
    (besti, bestj, bestsize)
}

#[cfg(test)]
mod tests {
    use super::close_match;

    #[test]
    fn the_closest_name_is_pythons() {
        // difflib.get_close_matches(word, names, n=1, cutoff=0.6) gives these
        let names = ["a1", "a2", "b1", "kitchen", "hall", "hallway"];
        assert_eq!(close_match("a10", names.into_iter()), Some("a1"));
        assert_eq!(close_match("kitchn", names.into_iter()), Some("kitchen"));
        assert_eq!(close_match("halls", names.into_iter()), Some("hall"));
        assert_eq!(close_match("None", names.into_iter()), None);
        assert_eq!(close_match("b", names.into_iter()), Some("b1"));
        // a ratio of one half is under the cutoff; of equal ratios, the greatest name
        assert_eq!(close_match("abcd", ["abxy"].into_iter()), None);
        assert_eq!(close_match("ab1", ["ab2", "ab3"].into_iter()), Some("ab3"));
        assert_eq!(close_match("ab1", ["ab3", "ab2"].into_iter()), Some("ab3"));
        // a word of 200 characters or more leaves its popular ones out, as difflib's autojunk: these two, alike
        // at 0.85 without it, match at 0.02
        let word = concat!(
            "bbfceejdjajcggifihieaafhfggicicddacfcciifiichgifjffhcghidhehiifhhfjihhdfcjeheeiiiijjgedhifjbfadbajae",
            "jdbiceddagaaffcdabbbaaafeccciagjadcaafjbefhaehijaegjchdbfbahcijghifcfeejgaicaeacccbhdiaddhbebjdjjfeg",
        );
        let name = concat!(
            "bbfchjidjajcggigihieaafhkbdicijddacfccaifbichgdfjffhcghidhehibfhhfjihhdfcjeheediiijjgedhifjbfedbadge",
            "jdbicediigaaffcdebbbaaffeccciagbadaaakjbefhaehijcegachdbfbahcijhhifcfeehgaigfeacccbhdigddhbebjdjjfkg",
        );
        assert_eq!(close_match(word, [name].into_iter()), None);
        assert_eq!(
            close_match(&word[..199], [&name[..199]].into_iter()),
            Some(&name[..199])
        );
    }
}
