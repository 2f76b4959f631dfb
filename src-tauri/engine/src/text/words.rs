//! The word table: every word's IDF weight and concepts, built once when Tongwen is compiled and read
//! in place at run time, without parsing.
//!
//! `build.rs` (this same file, through `#[path]`) reads the embedded IDF table (`assets/idf/`), the
//! Chinese → English lexicon (`assets/lexicon/`) and the stop words (`assets/stopwords/`), and writes one
//! blob that the binary embeds, aligned to 8 bytes. Looking a word up is one probe of an open-addressing
//! table keyed by the word's xxh3-64 (seed 0), the hash the SimHash computes anyway, and yields both
//! the word's weight and its concepts: nothing is decompressed, parsed, stemmed or inserted at start,
//! and a check touches only the pages of the words it looks up.
//!
//! The blob, in little-endian `u64` words:
//!
//! | words | what |
//! |---|---|
//! | 8 | header: [`MAGIC`], [`FORMAT`], word slots, common slots, concept pool length, concept slots, median weight, headwords |
//! | 2 × word slots | `[hash, entry]`, hash 0 for an empty slot; `entry` is the weight (low 32 bits, [`NO_WEIGHT`] for a word the IDF table lacks), the concepts' offset in the pool (next 24 bits) and their count (top 8 bits) |
//! | 2 × common slots | the same, for the [`COMMON_WORDS`] lowest-IDF words only: a table that stays in the processor's cache |
//! | 2 × concept slots | `[concept, headwords that gloss it]`, the same open addressing keyed by the concept (the xxh3-64 of an English stem): every concept once |
//! | pool length / 2, rounded up | each headword's concepts, sorted and distinct, as `u32` slots of the concept table (two to a word): slots compress where the concepts' hashes would not, which keeps the packages small |
//!
//! The values are those the text tables gave when they were parsed at every start: the pinned fingerprint
//! tests did not change, nor did the stored prints of the 4,246 eval-dev paragraphs (compared once, when
//! the table replaced the parsing). The module's tests check that the embedded blob is the one its text
//! gives. The fingerprint definition did not change.

use std::borrow::Cow;
use std::collections::HashMap;

use rust_stemmers::{Algorithm, Stemmer};
use xxhash_rust::xxh3::xxh3_64;

/// "TWWORDS\0": the blob's first word.
pub const MAGIC: u64 = u64::from_le_bytes(*b"TWWORDS\0");
/// The blob's layout; bump when it changes.
pub const FORMAT: u64 = 3;
/// Words in the small table of common words (about 256 KiB of slots).
pub const COMMON_WORDS: usize = 8192;
/// The weight of IDF 1.0.
pub const WEIGHT_ONE: f64 = 65_536.0;
/// The weight stored for a word the IDF table lacks (a lexicon headword only): it weighs the median.
pub const NO_WEIGHT: u32 = u32::MAX;

const HEADER: usize = 8;

/// IDF in fixed point, `round(idf × 2^16)`.
pub fn quantize(idf: f64) -> u32 {
    // IDF values are small positive numbers (jieba's are below 20); the cast saturates anything else.
    (idf.max(0.0) * WEIGHT_ONE).round() as u32
}

/// An English word's Snowball English (Porter 2) stem, lower-cased, with `stemmer`.
pub fn stem_with(stemmer: &Stemmer, word: &str) -> String {
    stemmer.stem(&word.to_lowercase()).into_owned()
}

/// The concept key of an English stem (or a Latin token, or a number): its xxh3-64.
pub fn concept(stem: &str) -> u64 {
    xxh3_64(stem.as_bytes())
}

/// A word's hash, the table's key: xxh3-64 with seed 0 of its UTF-8 bytes.
pub fn word_hash(word: &str) -> u64 {
    xxh3_64(word.as_bytes())
}

/// Why text could not be made into a table.
#[derive(Debug)]
pub struct BuildError(pub String);

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Build the blob from the IDF table's `word idf` lines, the lexicon's `headword<TAB>gloss gloss …`
/// lines (`#` lines are comments) and the stop words (weight 0 whether listed or not).
pub fn build<'s>(
    idf_text: &str,
    lexicon_text: &str,
    stop_words: impl IntoIterator<Item = &'s str>,
) -> Result<Vec<u8>, BuildError> {
    // Weights, as `IdfTable::parse` read them: the last line of a word wins.
    let mut weights: HashMap<u64, u32> = HashMap::with_capacity(300_000);
    let mut names: HashMap<u64, &str> = HashMap::with_capacity(400_000);
    for line in idf_text.lines() {
        let mut parts = line.split_whitespace();
        if let (Some(word), Some(value)) = (parts.next(), parts.next()) {
            if let Ok(v) = value.parse::<f64>() {
                let h = word_hash(word);
                name(&mut names, h, word)?;
                weights.insert(h, quantize(v));
            }
        }
    }
    let mut by_weight: Vec<(u32, u64)> = weights.iter().map(|(&h, &v)| (v, h)).collect();
    by_weight.sort_unstable();
    let median = by_weight
        .get(by_weight.len() / 2)
        .map_or(quantize(1.0), |p| p.0);
    for word in stop_words {
        let h = word_hash(word);
        name(&mut names, h, word)?;
        weights.insert(h, 0);
    }
    let common: Vec<u64> = by_weight.iter().take(COMMON_WORDS).map(|p| p.1).collect();

    // Concepts, as `Lexicon::parse` read them: a later line of a headword replaces an earlier one, a
    // line without glosses adds nothing, and every line counts towards its concepts' generality.
    let stemmer = Stemmer::create(Algorithm::English);
    let mut stems: HashMap<&str, u64> = HashMap::new();
    let mut glossed: HashMap<u64, Vec<u64>> = HashMap::new();
    let mut generality: HashMap<u64, u64> = HashMap::new();
    for line in lexicon_text.lines().filter(|l| !l.starts_with('#')) {
        let Some((head, glosses)) = line.split_once('\t') else {
            continue;
        };
        let mut keys: Vec<u64> = glosses
            .split_whitespace()
            .map(|w| {
                *stems
                    .entry(w)
                    .or_insert_with(|| concept(&stem_with(&stemmer, w)))
            })
            .collect();
        keys.sort_unstable();
        keys.dedup();
        for &k in &keys {
            *generality.entry(k).or_default() += 1;
        }
        if !keys.is_empty() {
            let h = word_hash(head);
            name(&mut names, h, head)?;
            glossed.insert(h, keys);
        }
    }

    // The concept table: each concept's generality, and its slot is where a headword's pool points.
    let mut concepts: Vec<u64> = generality.keys().copied().collect();
    concepts.sort_unstable();
    if concepts.first() == Some(&0) {
        return Err(BuildError("a concept hashes to 0".into()));
    }
    let concept_slots = slots_for(concepts.len());
    let concept_table = open_table(&concepts, concept_slots, |c| generality[&c]);
    let position: HashMap<u64, u32> = concept_table
        .chunks_exact(2)
        .enumerate()
        .filter(|(_, s)| s[0] != 0)
        .map(|(i, s)| (s[0], i as u32))
        .collect();
    // The pool, in hash order so that the blob is the same on every build.
    let mut heads: Vec<u64> = glossed.keys().copied().collect();
    heads.sort_unstable();
    let mut pool: Vec<u32> = Vec::new();
    let mut placed: HashMap<u64, u64> = HashMap::with_capacity(heads.len());
    for h in &heads {
        let keys = &glossed[h];
        if pool.len() >= 1 << 24 || keys.len() > 255 {
            return Err(BuildError(format!(
                "the concept pool outgrew its 24-bit offsets or a headword has {} concepts",
                keys.len()
            )));
        }
        placed.insert(*h, (pool.len() as u64) << 32 | (keys.len() as u64) << 56);
        // In the order of the sorted concepts.
        pool.extend(keys.iter().map(|k| position[k]));
    }
    let entry = |h: u64| -> u64 {
        let weight = weights.get(&h).copied().unwrap_or(NO_WEIGHT);
        u64::from(weight) | placed.get(&h).copied().unwrap_or(0)
    };
    let mut all: Vec<u64> = weights.keys().chain(glossed.keys()).copied().collect();
    all.sort_unstable();
    all.dedup();
    let words = slots_for(all.len());
    let common_slots = slots_for(common.len());

    let mut out: Vec<u64> = vec![
        MAGIC,
        FORMAT,
        words as u64,
        common_slots as u64,
        pool.len() as u64,
        concept_slots as u64,
        u64::from(median),
        heads.len() as u64,
    ];
    out.extend(open_table(&all, words, entry));
    out.extend(open_table(&common, common_slots, entry));
    out.extend(concept_table);
    let mut bytes: Vec<u8> = out.iter().flat_map(|w| w.to_le_bytes()).collect();
    bytes.extend(pool.iter().flat_map(|p| p.to_le_bytes()));
    if pool.len() % 2 == 1 {
        bytes.extend([0; 4]);
    }
    Ok(bytes)
}

/// "TWWIDS\0\0": an id table's first word.
pub const IDS_MAGIC: u64 = u64::from_le_bytes(*b"TWWIDS\0\0");
/// Words before an id table's entries: [`IDS_MAGIC`], the number of ids.
pub const IDS_HEADER: usize = 2;
/// An id table's entry for a word the word table lacks (no packed entry is all ones: its weight would
/// be [`NO_WEIGHT`] with 255 concepts at the pool's last offset).
const ABSENT: u64 = u64::MAX;

/// The id table of a segmenter's dictionary: for each of its `words`, in the order of their ids, the
/// word's packed entry in `table` (`ABSENT` when `table` lacks it), after an [`IDS_HEADER`]. A word
/// the segmenter took from its dictionary is then weighed and given its concepts by its id
/// ([`WordTable::by_id`]), without probing the table; its hash is still computed (the probe, which
/// mostly misses the cache, was the cost, not the hash). 8 bytes a word: 2.8 MB for jieba's.
pub fn build_ids<'w>(table: &WordTable, words: impl IntoIterator<Item = &'w str>) -> Vec<u64> {
    let mut out: Vec<u64> = vec![IDS_MAGIC, 0];
    out.extend(
        words
            .into_iter()
            .map(|word| table.get_packed(word_hash(word))),
    );
    out[1] = (out.len() - IDS_HEADER) as u64;
    out
}

/// The entries of an id table ([`build_ids`]), if `words` has its magic and size.
pub fn ids_of(words: &[u64]) -> Option<&[u64]> {
    (words.len() >= IDS_HEADER
        && words[0] == IDS_MAGIC
        && words[1] as usize + IDS_HEADER == words.len())
    .then(|| &words[IDS_HEADER..])
}

/// Record that `word` has `hash`: two words with one hash, or a hash of 0 (an empty slot's), would make
/// the table wrong, so the build fails instead.
fn name<'w>(names: &mut HashMap<u64, &'w str>, hash: u64, word: &'w str) -> Result<(), BuildError> {
    match names.insert(hash, word) {
        Some(other) if other != word => Err(BuildError(format!(
            "the words {other:?} and {word:?} share the hash {hash:016x}"
        ))),
        _ if hash == 0 => Err(BuildError(format!("the word {word:?} hashes to 0"))),
        _ => Ok(()),
    }
}

/// Slots for `n` keys: a power of two, at least 2, at most two-thirds full (so a probe always meets an
/// empty slot).
fn slots_for(n: usize) -> usize {
    (n * 3 / 2 + 1).next_power_of_two().max(2)
}

/// The slot where a probe for `hash` starts, in a table of `slots` slots.
fn home(hash: u64, slots: usize) -> usize {
    // xxh3's bits are all mixed: the top ones index the table.
    (hash >> (64 - slots.trailing_zeros())) as usize
}

/// An open-addressing table (linear probing) of `keys`, as `[hash, entry]` words.
fn open_table(keys: &[u64], slots: usize, entry: impl Fn(u64) -> u64) -> Vec<u64> {
    let mut table = vec![0u64; 2 * slots];
    for &h in keys {
        let mut i = home(h, slots);
        while table[2 * i] != 0 {
            i = (i + 1) & (slots - 1);
        }
        table[2 * i] = h;
        table[2 * i + 1] = entry(h);
    }
    table
}

/// The slot of `hash` in an open-addressing table of `[key, value]` words, if it is there.
#[inline]
fn slot(table: &[u64], hash: u64) -> Option<usize> {
    // 0 marks an empty slot; no key is 0 (the build refuses one).
    if hash == 0 {
        return None;
    }
    let slots = table.len() / 2;
    let mut i = home(hash, slots);
    loop {
        let stored = table[2 * i];
        if stored == hash {
            return Some(i);
        }
        if stored == 0 {
            return None;
        }
        i = (i + 1) & (slots - 1);
    }
}

/// What the table holds for one word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry<'t> {
    /// The word's weight: its IDF in fixed point, 0 for a stop word, [`NO_WEIGHT`] when the IDF table
    /// lacks it.
    pub weight: u32,
    /// Its concepts (a lexicon headword's glosses, stemmed), sorted and distinct; empty for others.
    pub concepts: Concepts<'t>,
}

/// A word's concepts, as stored: positions in the table's sorted list of concepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Concepts<'t> {
    positions: &'t [u32],
    /// The concept table's slots, `[concept, count]` pairs.
    general: &'t [u64],
}

impl<'t> Concepts<'t> {
    /// No concept.
    pub const NONE: Concepts<'static> = Concepts {
        positions: &[],
        general: &[],
    };

    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The concepts, sorted and distinct.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = u64> + 't {
        let general = self.general;
        self.positions.iter().map(move |&p| general[2 * p as usize])
    }

    /// The concepts with their generality (`(headwords that gloss it, concept)`, as
    /// [`WordTable::generality`] gives it), read from the same slot.
    pub fn iter_ranked(&self) -> impl ExactSizeIterator<Item = (u32, u64)> + 't {
        let general = self.general;
        self.positions.iter().map(move |&p| {
            let slot = 2 * p as usize;
            (general[slot + 1] as u32, general[slot])
        })
    }

    pub fn contains(&self, concept: u64) -> bool {
        self.iter().any(|c| c == concept)
    }

    /// The concepts, in a vector.
    pub fn to_vec(self) -> Vec<u64> {
        self.iter().collect()
    }
}

/// The concepts of several words with their generality: [`Concepts::iter_ranked`] of each in turn, read
/// in two passes (every word's positions, then every concept's slot) so that the loads, which mostly miss
/// the cache, overlap instead of each waiting for the one before it.
/// `slots` is scratch space (emptied first), kept by the caller from one call to the next.
pub fn ranked_concepts_of_all<'t>(
    words: &[Concepts<'t>],
    slots: &mut Vec<(&'t [u64], usize)>,
    out: &mut Vec<(u32, u64)>,
) {
    // Each concept's slot, with the concept table it is in.
    slots.clear();
    slots.extend(
        words
            .iter()
            .flat_map(|c| c.positions.iter().map(|&p| (c.general, 2 * p as usize))),
    );
    out.reserve(slots.len());
    out.extend(
        slots
            .iter()
            .map(|&(general, s)| (general[s + 1] as u32, general[s])),
    );
}

/// A word table, read in place (see the module notes).
#[derive(Debug, Clone)]
pub struct WordTable {
    words: Cow<'static, [u64]>,
}

/// Why bytes are not a word table.
#[derive(Debug, PartialEq, Eq)]
pub struct NotATable;

impl WordTable {
    /// The table in `words` (a blob [`build`] wrote, as `u64`s); checked for its magic, format and sizes.
    pub fn new(words: Cow<'static, [u64]>) -> Result<WordTable, NotATable> {
        let header = words.get(..HEADER).ok_or(NotATable)?;
        let sizes = [header[2], header[3], header[5]];
        let expected =
            HEADER as u64 + 2 * (header[2] + header[3] + header[5]) + header[4].div_ceil(2);
        if header[0] != MAGIC
            || header[1] != FORMAT
            || sizes.iter().any(|&s| !s.is_power_of_two() || s < 2)
            || words.len() as u64 != expected
        {
            return Err(NotATable);
        }
        Ok(WordTable { words })
    }

    /// A table built from text at run time (see [`build`]).
    pub fn from_text<'s>(
        idf_text: &str,
        lexicon_text: &str,
        stop_words: impl IntoIterator<Item = &'s str>,
    ) -> Result<WordTable, BuildError> {
        let bytes = build(idf_text, lexicon_text, stop_words)?;
        let words = bytes
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default()))
            .collect::<Vec<u64>>();
        WordTable::new(Cow::Owned(words)).map_err(|_| BuildError("not a word table".into()))
    }

    fn header(&self, i: usize) -> u64 {
        self.words[i]
    }

    fn word_slots(&self) -> usize {
        self.header(2) as usize
    }

    fn common_slots(&self) -> usize {
        self.header(3) as usize
    }

    /// The weight of a word the IDF table lacks: the table's median.
    pub fn median(&self) -> u32 {
        self.header(6) as u32
    }

    /// Lexicon headwords (with at least one concept).
    pub fn headwords(&self) -> usize {
        self.header(7) as usize
    }

    fn table(&self, offset: usize, slots: usize) -> &[u64] {
        &self.words[offset..offset + 2 * slots]
    }

    fn probe_packed(&self, table: &[u64], hash: u64) -> Option<u64> {
        slot(table, hash).map(|i| table[2 * i + 1])
    }

    fn entry(&self, packed: u64) -> Entry<'_> {
        let offset = (packed >> 32 & 0xFF_FFFF) as usize;
        let count = (packed >> 56) as usize;
        Entry {
            weight: packed as u32,
            concepts: Concepts {
                positions: self.pool().get(offset..offset + count).unwrap_or_default(),
                general: self.general(),
            },
        }
    }

    /// The pool of concept positions (`u32`s, two to a word, little-endian).
    fn pool(&self) -> &[u32] {
        let start = HEADER + 2 * (self.word_slots() + self.common_slots() + self.general_len());
        let words = &self.words[start..];
        let all: &[u32] = bytemuck::cast_slice(words);
        &all[..self.header(4) as usize]
    }

    /// The concept table's slots, `[concept, count]` pairs.
    fn general(&self) -> &[u64] {
        let start = HEADER + 2 * (self.word_slots() + self.common_slots());
        &self.words[start..start + 2 * self.general_len()]
    }

    fn general_len(&self) -> usize {
        self.header(5) as usize
    }

    /// What the table holds for the word whose [`word_hash`] is `hash`: the common words' small table
    /// first, then the whole one.
    #[inline]
    pub fn get(&self, hash: u64) -> Option<Entry<'_>> {
        self.by_id(self.get_packed(hash))
    }

    /// What [`Self::get`] answers, as stored: the word's packed entry ([`Self::by_id`] reads it).
    pub fn get_packed(&self, hash: u64) -> u64 {
        let common = self.table(HEADER + 2 * self.word_slots(), self.common_slots());
        self.probe_packed(common, hash)
            .or_else(|| self.probe_packed(self.table(HEADER, self.word_slots()), hash))
            .unwrap_or(ABSENT)
    }

    /// What [`Self::get`] answers for a word whose id table entry ([`build_ids`]) is `packed`, without
    /// a probe.
    #[inline]
    pub fn by_id(&self, packed: u64) -> Option<Entry<'_>> {
        (packed != ABSENT).then(|| self.entry(packed))
    }

    /// A word's weight: its IDF in fixed point, 0 for a stop word, the median for a word the IDF table
    /// lacks.
    #[inline]
    pub fn weight(&self, hash: u64) -> u32 {
        self.weight_of(self.get(hash))
    }

    /// [`Self::weight`] of a word already looked up (`entry`, [`Self::get`]'s answer).
    #[inline]
    pub fn weight_of(&self, entry: Option<Entry<'_>>) -> u32 {
        match entry {
            Some(e) if e.weight != NO_WEIGHT => e.weight,
            _ => self.median(),
        }
    }

    /// How many headwords gloss `concept` (0 when none does).
    pub fn generality(&self, concept: u64) -> u32 {
        let general = self.general();
        slot(general, concept).map_or(0, |i| general[2 * i + 1] as u32)
    }

    /// Every word's `(hash, entry)` in the whole table (for tests and statistics).
    pub fn iter(&self) -> impl Iterator<Item = (u64, Entry<'_>)> {
        self.table(HEADER, self.word_slots())
            .chunks_exact(2)
            .filter(|s| s[0] != 0)
            .map(|s| (s[0], self.entry(s[1])))
    }

    /// Every word's hash in the common words' table.
    pub fn common(&self) -> impl Iterator<Item = u64> + '_ {
        self.table(HEADER + 2 * self.word_slots(), self.common_slots())
            .chunks_exact(2)
            .filter(|s| s[0] != 0)
            .map(|s| s[0])
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    fn gunzip(bytes: &[u8]) -> String {
        let mut text = String::new();
        flate2::read::GzDecoder::new(bytes)
            .read_to_string(&mut text)
            .unwrap();
        text
    }

    #[test]
    fn one_probe_gives_a_words_weight_and_concepts() {
        let t = WordTable::from_text(
            "软件 7.5\n包 3.25\n的 0.5\n",
            "# comment\n软件\tsoftware programs\n程序\tprogram\n空\t\n",
            ["的", "the"],
        )
        .unwrap();
        let stem = Stemmer::create(Algorithm::English);
        let c = |w: &str| concept(&stem_with(&stem, w));
        let soft = t.get(word_hash("软件")).unwrap();
        assert_eq!(soft.weight, quantize(7.5));
        let mut want = vec![c("software"), c("programs")];
        want.sort_unstable();
        assert_eq!(soft.concepts.to_vec(), want);
        // Each concept comes with its generality, read from its own slot: "program" is glossed by two
        // headwords (through "programs"), "software" by one.
        let ranked: Vec<(u32, u64)> = soft.concepts.iter_ranked().collect();
        let generalities: Vec<u32> = ranked.iter().map(|r| r.0).collect();
        assert_eq!(
            ranked,
            want.iter()
                .map(|&k| (t.generality(k), k))
                .collect::<Vec<_>>()
        );
        assert!(generalities.contains(&2) && generalities.contains(&1));
        // A headword the IDF table lacks weighs the median; a word in neither is not there.
        let prog = t.get(word_hash("程序")).unwrap();
        assert_eq!(
            (prog.weight, prog.concepts.to_vec()),
            (NO_WEIGHT, vec![c("program")])
        );
        assert_eq!(t.weight(word_hash("程序")), t.median());
        assert_eq!(t.median(), quantize(3.25));
        assert!(t.get(word_hash("空")).is_none() && t.get(word_hash("河")).is_none());
        // Stop words weigh 0, listed or not.
        assert_eq!(t.weight(word_hash("的")), 0);
        assert_eq!(t.weight(word_hash("the")), 0);
        // "programs" and "program" share a stem: two headwords gloss it.
        assert_eq!(t.generality(c("program")), 2);
        assert_eq!(t.generality(c("river")), 0);
        assert_eq!(t.headwords(), 2);
    }

    #[test]
    fn a_later_line_of_a_word_replaces_the_earlier_one() {
        let t = WordTable::from_text("甲 1\n甲 2\n", "乙\told\n乙\tnew\n乙\t\n", []).unwrap();
        assert_eq!(t.weight(word_hash("甲")), quantize(2.0));
        let stem = Stemmer::create(Algorithm::English);
        assert_eq!(
            t.get(word_hash("乙")).unwrap().concepts.to_vec(),
            [concept(&stem_with(&stem, "new"))]
        );
        // Every line counts towards generality, the replaced one too.
        assert_eq!(t.generality(concept("old")), 1);
    }

    #[test]
    fn bytes_that_are_not_a_table_are_refused() {
        assert_eq!(WordTable::new(Cow::Owned(vec![])).unwrap_err(), NotATable);
        let mut words: Vec<u64> = build("甲 1\n", "", [])
            .unwrap()
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert!(WordTable::new(Cow::Owned(words.clone())).is_ok());
        words.pop();
        assert_eq!(
            WordTable::new(Cow::Owned(words.clone())).unwrap_err(),
            NotATable
        );
        words[0] = 0;
        assert_eq!(WordTable::new(Cow::Owned(words)).unwrap_err(), NotATable);
    }

    #[test]
    fn the_embedded_table_is_the_one_its_text_gives() {
        // build.rs wrote the embedded blob when the crate was compiled; building it again from the same
        // assets now must give the same bytes (the build is deterministic and the blob is current).
        let idf = gunzip(include_bytes!("../../../../assets/idf/jieba-idf.txt.gz"));
        let lexicon = gunzip(include_bytes!(
            "../../../../assets/lexicon/cedict-zh-en.txt.gz"
        )) + &gunzip(include_bytes!(
            "../../../../assets/lexicon/learned-zh-en.txt.gz"
        ));
        let built = build(&idf, &lexicon, crate::text::tokens::stop_words()).unwrap();
        let embedded = crate::text::word_table();
        let words: Vec<u64> = built
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert!(words == *embedded.words, "the embedded word table is stale");
        assert!(embedded.headwords() > 100_000);
    }

    #[test]
    fn the_id_table_is_the_one_jiebas_dictionary_gives() {
        // Each id's entry is what the word table holds for jieba's word of that id.
        let table = crate::text::word_table();
        let built = build_ids(table, jieba_rs::Jieba::default_dict_words());
        let ids = crate::text::word_ids();
        assert!(
            ids_of(&built) == Some(ids),
            "the embedded id table is stale"
        );
        let jieba = jieba_rs::Jieba::new();
        assert_eq!(ids.len(), jieba.word_count());
        let (mut found, mut absent) = (0, 0);
        for (i, word) in jieba_rs::Jieba::default_dict_words().enumerate() {
            if jieba.word_id(word) != Some(i) {
                continue; // a word listed twice: its first id is never given
            }
            let entry = table.by_id(ids[i]);
            assert_eq!(entry, table.get(word_hash(word)), "{word}");
            if entry.is_some() {
                found += 1;
            } else {
                absent += 1;
            }
        }
        assert!(
            found > 200_000 && absent > 10_000,
            "{found} found, {absent} absent"
        );
        assert_eq!(ids_of(&built[1..]), None);
        assert_eq!(ids_of(&built[..built.len() - 1]), None);
    }

    #[test]
    fn only_the_stop_words_weigh_nothing_in_the_embedded_table() {
        // Fingerprinting reads "stop word" from the weight its probe returns (0), instead of looking the
        // word up among the stop words as well: that holds while no other word's IDF rounds to 0.
        let table = crate::text::word_table();
        let weightless: std::collections::HashSet<u64> = table
            .iter()
            .filter(|(_, e)| e.weight == 0)
            .map(|(h, _)| h)
            .collect();
        let stop: std::collections::HashSet<u64> =
            crate::text::tokens::stop_words().map(word_hash).collect();
        assert!(stop.len() > 200, "{} stop words", stop.len());
        assert_eq!(weightless, stop);
        assert!(table.median() > 0);
    }
}
