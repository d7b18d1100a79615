//! A small deterministic generator for the YAML tests that compare fedrender's fast paths with
//! serde-saphyr on random documents (xorshift64: the same documents on every run).

pub(super) struct Random(pub(super) u64);

impl Random {
    pub(super) fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as usize
    }

    pub(super) fn pick<'p>(&mut self, pieces: &[&'p str]) -> &'p str {
        pieces[self.below(pieces.len())]
    }
}
