//! "Did you mean …?": the nearest of a set of names to a word that is not one of them, by
//! optimal string alignment distance (Levenshtein's edits plus swapping two neighbours, so
//! `Deploymnet` is one edit from `Deployment`), for the hints of error messages.

/// The longest word a typo hint is looked for: names of fields and kinds are far shorter, and
/// the edit distance costs the product of the two lengths, which input of any length must not
/// be able to make unbounded.
const HINT_WORD_MAX_CHARS: usize = 100;

/// The nearest candidate, if it is close enough to be a plausible typo.
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let length = word.chars().count();
    if length > HINT_WORD_MAX_CHARS {
        return None;
    }
    let limit = (length / 3).max(2);
    candidates
        .into_iter()
        // The distance is at least the difference in length; a char takes at most 4 bytes,
        // so a long candidate is dismissed before its chars are counted.
        .filter(|candidate| candidate.len() <= 4 * (length + limit))
        .filter(|candidate| candidate.chars().count().abs_diff(length) <= limit)
        .map(|candidate| (edit_distance(word, candidate), candidate))
        .filter(|(distance, _)| *distance <= limit)
        .min()
        .map(|(_, candidate)| candidate)
}

/// [`nearest`] for names of a numbered series (clusters, mostly): `member3` is not offered for
/// `member1`, since names that differ only in their digits are other members of the series,
/// not typos of each other.
pub(crate) fn nearest_name<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let letters = |name: &str| -> String { name.chars().filter(|c| !c.is_ascii_digit()).collect() };
    let near = nearest(word, candidates)?;
    (letters(near) != letters(word)).then_some(near)
}

/// The edits between two words, case not counted: `clustername` is a typo of `clusterNames`.
pub fn distance(a: &str, b: &str) -> usize {
    edit_distance(a, b)
}

fn edit_distance(a: &str, b: &str) -> usize {
    strsim::osa_distance(&a.to_lowercase(), &b.to_lowercase())
}

/// The hint appended to a message: `; did you mean eu-1?`, or nothing.
pub fn did_you_mean(near: Option<&str>) -> String {
    hint(near, Hint::After)
}

/// Where a "did you mean" hint sits in its message, and how it writes the name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hint {
    /// `; did you mean eu-1?`, after the message.
    After,
    /// ``; did you mean `spec`?``, after the message, the name a field written as code.
    AfterAsCode,
    /// ` (did you mean FederatedDeployment?)`, in parentheses after what was not found.
    InParentheses,
    /// ` (did you mean "eu-1"?)`, in parentheses, the name quoted.
    InParenthesesQuoted,
    /// `did you mean eu-1? `, before the list of names it was not one of.
    Before,
}

/// Every hint a message gives about a name that is not one, in the words of all of them
/// (`did you mean …?`), placed as `hint` says; nothing without a near name.
pub fn hint(near: Option<&str>, hint: Hint) -> String {
    let Some(near) = near else {
        return String::new();
    };
    match hint {
        Hint::After => format!("; did you mean {near}?"),
        Hint::AfterAsCode => format!("; did you mean `{near}`?"),
        Hint::InParentheses => format!(" (did you mean {near}?)"),
        Hint::InParenthesesQuoted => format!(" (did you mean {near:?}?)"),
        Hint::Before => format!("did you mean {near}? "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_finds_a_typo_and_rejects_unrelated_words() {
        let fields = ["clusterNames", "exclude", "labelSelector", "fieldSelector"];
        assert_eq!(nearest("clusterNams", fields), Some("clusterNames"));
        assert_eq!(nearest("clustername", fields), Some("clusterNames"));
        assert_eq!(nearest("replicas", fields), None);
    }

    /// Two neighbours swapped, the commonest typo, is one edit (Levenshtein counts two).
    #[test]
    fn a_swap_of_neighbours_is_one_edit() {
        assert_eq!(edit_distance("Deploymnet", "Deployment"), 1);
        assert_eq!(edit_distance("clsuterNames", "clusterNames"), 1);
        // Levenshtein would offer `tables` (one substitution) over `labels` (two edits).
        assert_eq!(nearest("lables", ["labels", "tables"]), Some("labels"));
    }

    #[test]
    fn a_numbered_series_member_is_not_a_typo_of_another() {
        let clusters = ["member1", "member2", "prod-eu-2"];
        assert_eq!(nearest_name("member3", clusters), None);
        assert_eq!(nearest_name("membr2", clusters), Some("member2"));
        assert_eq!(nearest_name("prod-eu2", clusters), Some("prod-eu-2"));
    }

    /// Words and candidates from the input can be of any length; looking for a typo among them
    /// must not cost the product of their lengths. The work is bounded by where distances stop
    /// being computed: a word one char past [`HINT_WORD_MAX_CHARS`] gets no hint even for a
    /// candidate one edit away, which a computed distance would offer, and a word at the bound
    /// gets it. Candidates are measured only within the word's length and its limit, so no
    /// distance costs more than 100 × 133 steps, whatever the input.
    #[test]
    fn hints_for_huge_words_cost_nothing() {
        let at_bound = "k".repeat(HINT_WORD_MAX_CHARS);
        let past_bound = "k".repeat(HINT_WORD_MAX_CHARS + 1);
        let near = |word: &str| format!("{word}x");
        assert_eq!(
            nearest(&at_bound, [near(&at_bound).as_str()]),
            Some(near(&at_bound).as_str())
        );
        assert_eq!(nearest(&past_bound, [near(&past_bound).as_str()]), None);
        // A million chars either way, which a distance would take hours over.
        let huge = "k".repeat(1_000_000);
        let near_huge = near(&huge);
        assert_eq!(nearest(&huge, [near_huge.as_str(), "kind"]), None);
        assert_eq!(nearest("kinds", [near_huge.as_str(), "kind"]), Some("kind"));
    }
}
