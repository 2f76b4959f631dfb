//! Copying by translation, Chinese ↔ English: a Chinese word stands
//! for the English words of its dictionary glosses, an English word for its stem, and two paragraphs of
//! different languages are aligned sentence by sentence on the words they share that way.
//!
//! - **Lexicon**: `assets/lexicon/cedict-zh-en.txt.gz`, derived from CC-CEDICT (CC BY-SA 4.0, see its
//!   README): Simplified headword → English gloss words; and `learned-zh-en.txt.gz`, the terms
//!   CC-CEDICT glosses in other senses (访问 "access", 管理员 "admin"), learned from Debian's
//!   translation catalogues by `scripts/make-learned-lexicon.py`. Compiled into the word table, gloss
//!   words stemmed.
//! - **Concepts**: an English word's Snowball (Porter 2) stem, as xxh3-64 (seed 0) of the stem; a Chinese
//!   word's concepts are those of its gloss words (a word the lexicon lacks: those of its characters;
//!   in sentences, a compound of three or more characters also has those of its dictionary parts:
//!   管理工具, 管理 and 工具);
//!   Latin words inside Chinese text (commands, names) stand for their own stems. In sentences, a
//!   hyphenated English word or Latin token stands for its parts' stems ("client-server": client,
//!   server), or for its own when no part has one; a closed compound the lexicon does not gloss also
//!   for the two glossed words it splits into ("spellchecking": spell, check). Numbers, punctuation
//!   and stop words are left out.
//! - **Sentences**: a paragraph is cut after `。！？；!?`, and after `.` or `;` followed by whitespace
//!   (see [`split`]); each sentence
//!   has a language (Chinese when at least a fifth of its letters are ideographs), its words' concepts
//!   and its place in the paragraph (in `char`s).
//! - **Alignment** ([`translation`]): the two paragraphs' sentences are aligned in order, one to one,
//!   one to two or two to one, by [`pair_score`]: how much of each sentence's words the other covers (a
//!   word is covered when one of its concepts is the other sentence's), scaled by the share of anchors
//!   (Latin tokens, numbers) the two keep, and nothing when their lengths are out of proportion. A pair
//!   counts at [`SENTENCE_COVER`]; the translated share of a paragraph is the share of its characters
//!   in paired sentences.
//! - **Index keys** ([`index_keys`]): every stored paragraph is also indexed by its concepts, so that a
//!   paragraph of one language can shortlist library paragraphs of the other. A concept key is a `u32`
//!   with the top bit set (shingle keys have it clear, `fingerprint::shingles`), the next bit telling the
//!   paragraph's language (set: Chinese) and the low 30 bits the concept's top 30 bits. A Chinese word
//!   gives its glosses' concepts when the lexicon has it with at most [`MAX_INDEXED_CONCEPTS`] of them
//!   (more is a word of many senses, which says little); an English or Latin word its stem; stop words
//!   and numbers nothing. A library paragraph stores at most [`MAX_STORED_CONCEPTS`] of them, the most
//!   specific ([`stored_keys`]); a submission paragraph looks all of its own up.

mod align;
pub mod lexicon;

pub use crate::text::words::concept;
use crate::text::words::{word_hash, Concepts};
#[cfg(test)]
use align::join;
pub use align::{
    covered_words, features, order_agreement, pair_features, pair_score, single_pair_confidence,
    translation, translation_unjoined, PairEvidence, PairFeatures, SentencePair, GAP_COVER,
    GAP_MIN_MATCHED, LENGTH_BAND, LETTERS_PER_HAN, MAX_ALIGNED_PAIRS, MIN_MATCHED, REORDERED_COVER,
};
pub use lexicon::{stem, Lexicon};

use crate::text::normalize::normalize_char;
use crate::text::tokens::{is_content, Tokenizer};
use crate::text::{is_ideograph, normalize, Letters};

/// A Chinese word with more concepts than this is not indexed (see the module notes).
pub const MAX_INDEXED_CONCEPTS: usize = 8;

/// Concept keys stored per paragraph at most: the most specific ones (see [`stored_keys`]). 32 before
/// fingerprint version 7: a long paragraph's 32 most specific concepts often lay in a few of its
/// sentences, and the translation of another one alone could not shortlist it.
pub const MAX_STORED_CONCEPTS: usize = 48;

/// The bit every concept key has (shingle keys never do).
pub const CONCEPT_BIT: u32 = 0x8000_0000;
/// The bit of a concept key of a Chinese paragraph.
pub const CHINESE_BIT: u32 = 0x4000_0000;

/// The share of each sentence's words the other must cover for two sentences to be a translation pair.
pub const SENTENCE_COVER: f64 = 0.5;

/// The language of a sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    Chinese,
    English,
}

/// A sentence as the cross-language comparison sees it.
#[derive(Debug, Clone)]
pub struct Sentence {
    /// Where it is in its paragraph, in `char`s: `[start, end)`.
    pub start: usize,
    pub end: usize,
    pub language: Language,
    /// Each content word's concepts (one for an English word or a Latin token, its glosses' for a
    /// Chinese word), word `i` being `keys[ends[i - 1]..ends[i]]`; words without any are left out.
    keys: Vec<u64>,
    ends: Vec<u32>,
    /// Every concept of the sentence, sorted and distinct.
    concepts: Vec<u64>,
    /// Its Latin tokens and numbers (runs of ASCII letters and digits, lower-cased), hashed, sorted
    /// and distinct: the anchors a translation keeps (commands, names, paths, numbers).
    latin: Vec<u64>,
    /// Of [`Self::latin`], the numbers.
    numbers: Vec<u64>,
    /// Ideographs, and ASCII letters and digits: the sentence's length for the length model.
    han: u32,
    ascii: u32,
}

impl Sentence {
    /// Content words (with at least one concept).
    pub fn words(&self) -> usize {
        self.ends.len()
    }

    /// Word `i`'s concepts.
    pub fn word(&self, i: usize) -> &[u64] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.keys[start..self.ends[i] as usize]
    }

    /// Whether any word of the sentence stands for `concept`.
    pub fn has(&self, concept: u64) -> bool {
        self.concepts.binary_search(&concept).is_ok()
    }
}

/// The hashes of `text`'s Latin tokens and of its numbers (see [`Sentence`]), each sorted and distinct.
/// A token ending in a plural "s" (not "ss", not after a digit) stands for its singular too in an
/// English sentence ("CDs" keeps the Chinese sentence's "CD"), and for its singular alone in a Chinese
/// one (so that it still counts as one anchor).
fn latin_tokens(text: &str, language: Language) -> (Vec<u64>, Vec<u64>) {
    let (mut latin, mut numbers) = (Vec::new(), Vec::new());
    let mut lower = String::new();
    // Runs of ASCII letters and digits, found in the bytes (every byte of a character beyond ASCII is
    // a separator too, and a run's bounds are character bounds).
    let bytes = text.as_bytes();
    let mut end = 0;
    while end < bytes.len() {
        if !bytes[end].is_ascii_alphanumeric() {
            end += 1;
            continue;
        }
        let start = end;
        while end < bytes.len() && bytes[end].is_ascii_alphanumeric() {
            end += 1;
        }
        let token = &text[start..end];
        if token.len() < 2 && !bytes[start].is_ascii_digit() {
            continue;
        }
        // Normalised text is lower case already: a copy only when it is not.
        let token = if token.bytes().any(|b| b.is_ascii_uppercase()) {
            lower.clear();
            lower.push_str(token);
            lower.make_ascii_lowercase();
            lower.as_str()
        } else {
            token
        };
        let b = token.as_bytes();
        let plural = b.len() >= 3
            && b[b.len() - 1] == b's'
            && b[b.len() - 2] != b's'
            && !b[b.len() - 2].is_ascii_digit();
        if plural {
            latin.push(word_hash(&token[..token.len() - 1]));
            if language == Language::Chinese {
                continue;
            }
        }
        let h = word_hash(token);
        latin.push(h);
        if b.iter().all(u8::is_ascii_digit) {
            numbers.push(h);
        }
    }
    for v in [&mut latin, &mut numbers] {
        v.sort_unstable();
        v.dedup();
    }
    (latin, numbers)
}

/// The concept keys of a paragraph of `language` (see the module notes), sorted and distinct.
pub fn index_keys(language: Language, concepts: &[u64]) -> Vec<u32> {
    keys_of(language, concepts.iter().copied())
}

/// [`index_keys`] of concepts as they come.
fn keys_of(language: Language, concepts: impl Iterator<Item = u64>) -> Vec<u32> {
    let mut keys: Vec<u32> = concepts.map(|c| concept_key(language, c)).collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// The key of `concept` in paragraphs of `language` (see the module notes).
pub fn concept_key(language: Language, concept: u64) -> u32 {
    let tag = match language {
        Language::Chinese => CONCEPT_BIT | CHINESE_BIT,
        Language::English => CONCEPT_BIT,
    };
    tag | (concept >> 34) as u32
}

/// The concept keys a library paragraph is stored with: of its distinct concepts, the
/// [`MAX_STORED_CONCEPTS`] most specific ones (the fewest dictionary headwords gloss them, ties by
/// concept), as [`index_keys`].
pub fn stored_keys(lexicon: &Lexicon, language: Language, concepts: &[u64]) -> Vec<u32> {
    let mut distinct = DistinctConcepts::default();
    distinct.extend(concepts.iter().map(|&c| (lexicon.generality(c), c)));
    distinct.stored_keys(language)
}

/// A paragraph's distinct concepts with their generality, kept distinct as they are added (in a small
/// open-addressing set keyed by the concept, itself a hash), in the order first added. Fingerprinting
/// collects a paragraph's concepts in one, instead of sorting every occurrence to find the distinct
/// ones.
#[derive(Debug, Default, Clone)]
pub struct DistinctConcepts {
    /// Linear probing, 0 for an empty slot; a power of two, at most half full.
    slots: Vec<u64>,
    concepts: Vec<(u32, u64)>,
    has_zero: bool,
}

impl DistinctConcepts {
    /// Add `(generality, concept)` unless the concept is there already.
    #[inline]
    pub fn push(&mut self, ranked: (u32, u64)) {
        let concept = ranked.1;
        if concept == 0 {
            if !self.has_zero {
                self.has_zero = true;
                self.concepts.push(ranked);
            }
            return;
        }
        if 2 * (self.concepts.len() + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = concept as usize & mask;
        loop {
            match self.slots[i] {
                0 => {
                    self.slots[i] = concept;
                    self.concepts.push(ranked);
                    return;
                }
                c if c == concept => return,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Empty the set, keeping its memory for the next paragraph (unless a long one grew it past what
    /// a paragraph usually needs, which is let go rather than zeroed each time).
    pub fn clear(&mut self) {
        if self.slots.len() > 4096 {
            self.slots = Vec::new();
            self.concepts = Vec::new();
        } else {
            self.slots.fill(0);
            self.concepts.clear();
        }
        self.has_zero = false;
    }

    fn grow(&mut self) {
        let size = (2 * self.slots.len()).max(256);
        self.slots = vec![0; size];
        let mask = size - 1;
        for &(_, concept) in self.concepts.iter().filter(|r| r.1 != 0) {
            let mut i = concept as usize & mask;
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = concept;
        }
    }

    /// The distinct concepts.
    pub fn len(&self) -> usize {
        self.concepts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.concepts.is_empty()
    }

    /// The keys a library paragraph is stored with (see [`stored_keys`]): the
    /// [`MAX_STORED_CONCEPTS`] most specific concepts (ties by concept), as [`index_keys`].
    pub fn stored_keys(mut self, language: Language) -> Vec<u32> {
        self.take_stored_keys(language)
    }

    /// [`Self::stored_keys`], leaving the set to be cleared and used again (its order is changed).
    pub fn take_stored_keys(&mut self, language: Language) -> Vec<u32> {
        let concepts = &mut self.concepts;
        if concepts.len() > MAX_STORED_CONCEPTS {
            concepts.select_nth_unstable(MAX_STORED_CONCEPTS - 1);
            concepts.truncate(MAX_STORED_CONCEPTS);
        }
        keys_of(language, concepts.iter().map(|r| r.1))
    }
}

impl Extend<(u32, u64)> for DistinctConcepts {
    fn extend<I: IntoIterator<Item = (u32, u64)>>(&mut self, iter: I) {
        for ranked in iter {
            self.push(ranked);
        }
    }
}

/// The other language.
pub fn other(language: Language) -> Language {
    match language {
        Language::Chinese => Language::English,
        Language::English => Language::Chinese,
    }
}

/// Add the concepts a (normalised, non-stop) word is indexed by to `out` (see the module notes).
pub fn push_index_concepts(lexicon: &Lexicon, word: &str, out: &mut Vec<u64>) {
    push_index_concepts_hashed(lexicon, word, word_hash(word), out);
}

/// [`push_index_concepts`] of a word whose hash ([`word_hash`]) is known: a Chinese
/// word's concepts then cost one probe of the word table.
pub fn push_index_concepts_hashed(lexicon: &Lexicon, word: &str, hash: u64, out: &mut Vec<u64>) {
    let glosses = if word.chars().any(is_ideograph) {
        lexicon.translations_of(hash)
    } else {
        Concepts::NONE
    };
    push_index_concepts_of(word, hash, glosses, out);
}

/// [`push_index_concepts_hashed`] with the word's lexicon concepts already looked up (`glosses`, the
/// word table's entry for it).
pub fn push_index_concepts_of(word: &str, hash: u64, glosses: Concepts<'_>, out: &mut Vec<u64>) {
    push_concepts_as(word, hash, glosses, out, |(_, c)| c);
}

/// [`push_index_concepts_of`], each concept with its generality (see [`DistinctConcepts`]): what
/// fingerprinting does, one probe per word for its weight, its concepts and their generality. An
/// ideograph word's glosses are left in `later`, for [`crate::text::words::ranked_concepts_of_all`] to
/// read with the paragraph's others; an English word's concept goes to `out` at once.
pub fn push_ranked_concepts_later<'t>(
    word: &str,
    hash: u64,
    glosses: Concepts<'t>,
    later: &mut Vec<Concepts<'t>>,
    out: &mut DistinctConcepts,
) {
    if word.chars().any(is_ideograph) {
        if !glosses.is_empty() && glosses.len() <= MAX_INDEXED_CONCEPTS {
            later.push(glosses);
        }
    } else if let Some(ranked) = english_concept(word, hash) {
        out.push(ranked);
    }
}

/// A word's indexed concepts, each `(generality, concept)` made an item of `out` by `item`: an
/// ideograph word's glosses (unless it has more than [`MAX_INDEXED_CONCEPTS`]), an English word's stem.
fn push_concepts_as<T>(
    word: &str,
    hash: u64,
    glosses: Concepts<'_>,
    out: &mut impl Extend<T>,
    item: impl Fn((u32, u64)) -> T,
) {
    if word.chars().any(is_ideograph) {
        if glosses.len() <= MAX_INDEXED_CONCEPTS {
            out.extend(glosses.iter_ranked().map(item));
        }
    } else if let Some(ranked) = english_concept(word, hash) {
        out.extend([item(ranked)]);
    }
}

/// The concept of an English (or Latin) content word whose [`word_hash`] is `hash`, with its generality:
/// its stem's, unless the stem is one letter. Stems are remembered per thread by the word's hash (a text
/// repeats its words; the hash is the word table's key, unique among its words).
fn english_concept(word: &str, hash: u64) -> Option<(u32, u64)> {
    thread_local! {
        static CACHE: std::cell::RefCell<rustc_hash::FxHashMap<u64, Option<(u32, u64)>>> =
            std::cell::RefCell::new(rustc_hash::FxHashMap::default());
    }
    if !is_content(word) {
        return None;
    }
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some(&c) = cache.get(&hash) {
            return c;
        }
        let s = stem(word);
        let c = (s.chars().count() > 1).then(|| {
            let c = concept(&s);
            (crate::text::word_table().generality(c), c)
        });
        if cache.len() >= 1 << 16 {
            cache.clear();
        }
        cache.insert(hash, c);
        c
    })
}

/// A paragraph as the cross-language comparison reads it: its language, sentences and indexed concepts,
/// from one pass of the segmenter.
#[derive(Debug, Clone)]
pub struct Analysis {
    pub language: Language,
    pub sentences: Vec<Sentence>,
    /// The concepts the paragraph is indexed by ([`push_index_concepts`] of every word), word after
    /// word.
    pub concepts: Vec<u64>,
    /// Where each word's part of [`Self::concepts`] ends (words with no concept left out).
    pub word_ends: Vec<usize>,
    /// Each sentence's part of [`Self::concepts`] (whole words).
    pub sentence_concepts: Vec<std::ops::Range<usize>>,
}

impl Analysis {
    /// The concept terms of the words whose concepts lie in `range` (the whole paragraph's, or a
    /// sentence's), as keys of paragraphs of `language`: see [`ConceptTerms`].
    pub fn terms(
        &self,
        lexicon: &Lexicon,
        language: Language,
        range: std::ops::Range<usize>,
    ) -> ConceptTerms {
        let mut terms = ConceptTerms::default();
        let first = self.word_ends.partition_point(|&end| end <= range.start);
        let mut start = range.start;
        for &end in self.word_ends[first..]
            .iter()
            .take_while(|&&end| end <= range.end)
        {
            for &c in &self.concepts[start..end] {
                terms.keys.push(concept_key(language, c));
                terms.generality.push(lexicon.generality(c));
            }
            terms.ends.push(terms.keys.len() as u32);
            start = end;
        }
        terms
    }
}

/// A text's concept keys by term, the unit a translator renders: a Chinese word's glosses (one of
/// which is the translator's word, likelier a common one than a rare sense), an English word's or a
/// Latin token's stem. `check::Index::shortlist_rare` reads them in the order
/// `library::shortlist::reading_order` gives.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConceptTerms {
    /// Each term's keys, term after term (a key may be in several terms).
    pub keys: Vec<u32>,
    /// Each key's concept's generality ([`Lexicon::generality`]), parallel to [`Self::keys`].
    pub generality: Vec<u32>,
    /// Where each term's keys end in [`Self::keys`].
    pub ends: Vec<u32>,
}

impl ConceptTerms {
    /// How many distinct keys the terms hold.
    pub fn distinct(&self) -> usize {
        let mut keys = self.keys.clone();
        keys.sort_unstable();
        keys.dedup();
        keys.len()
    }
}

/// Read a paragraph (see [`Analysis`]).
pub fn analyse(tokenizer: &Tokenizer, lexicon: &Lexicon, paragraph: &str) -> Analysis {
    let mut analysis = Analysis {
        language: language_of(&normalize(paragraph)),
        sentences: Vec::new(),
        concepts: Vec::new(),
        word_ends: Vec::new(),
        sentence_concepts: Vec::new(),
    };
    analysis.sentences = sentences_with(tokenizer, lexicon, paragraph, Some(&mut analysis));
    analysis
}

/// The paragraph's sentences with their concepts.
pub fn sentences(tokenizer: &Tokenizer, lexicon: &Lexicon, paragraph: &str) -> Vec<Sentence> {
    sentences_with(tokenizer, lexicon, paragraph, None)
}

/// [`sentences`], also collecting the words' indexed concepts into `indexed` (its concepts, word ends
/// and sentences' ranges).
fn sentences_with(
    tokenizer: &Tokenizer,
    lexicon: &Lexicon,
    paragraph: &str,
    mut indexed: Option<&mut Analysis>,
) -> Vec<Sentence> {
    let chars: Vec<char> = paragraph.chars().collect();
    // Where each character starts in the paragraph's bytes, and where the last one ends.
    let mut at: Vec<usize> = paragraph.char_indices().map(|(i, _)| i).collect();
    at.push(paragraph.len());
    // The paragraph's language, which its sentences keep when they can (see [`sentence_language`]),
    // read the first time a sentence's letters leave its language open.
    let paragraph_language = std::cell::OnceCell::new();
    let paragraph_language = || {
        *paragraph_language.get_or_init(|| {
            let mut letters = Letters::default();
            for c in paragraph.chars() {
                normalize_char(c, |n| letters.add(n));
            }
            language_of_letters(letters)
        })
    };
    // One buffer for every sentence's normalised text.
    let mut normalized = String::with_capacity(paragraph.len());
    split_chars(&chars)
        .into_iter()
        .filter_map(|(start, end)| {
            // Normalised, with its letters, ideographs and ASCII letters and digits counted on the way.
            normalized.clear();
            let (mut letters, mut han, mut ascii) = (Letters::default(), 0u32, 0u32);
            for c in paragraph[at[start]..at[end]].chars() {
                normalize_char(c, |n| {
                    normalized.push(n);
                    letters.add(n);
                    han += u32::from(is_ideograph(n));
                    ascii += u32::from(n.is_ascii_alphanumeric());
                });
            }
            let language = sentence_language(letters, paragraph_language);
            let (mut keys, mut ends) = (Vec::new(), Vec::new());
            let (latin, numbers) = latin_tokens(&normalized, language);
            let first = indexed.as_deref().map_or(0, |i| i.concepts.len());
            tokenizer.for_each_normalized_word(&normalized, |w| {
                if tokenizer.is_stop_word(w) {
                    return;
                }
                let hash = word_hash(w);
                if let Some(out) = indexed.as_deref_mut() {
                    let before = out.concepts.len();
                    push_index_concepts_hashed(lexicon, w, hash, &mut out.concepts);
                    if out.concepts.len() > before {
                        out.word_ends.push(out.concepts.len());
                    }
                }
                let before = keys.len();
                push_word_concepts(lexicon, w, hash, &mut keys);
                if keys.len() > before {
                    ends.push(keys.len() as u32);
                }
            });
            if ends.is_empty() {
                return None;
            }
            if let Some(out) = indexed.as_deref_mut() {
                let last = out.concepts.len();
                out.sentence_concepts.push(first..last);
            }
            let mut concepts = keys.clone();
            concepts.sort_unstable();
            concepts.dedup();
            Some(Sentence {
                start,
                end,
                language,
                keys,
                ends,
                concepts,
                latin,
                numbers,
                han,
                ascii,
            })
        })
        .collect()
}

/// Push a word's concepts: an ideograph word's glosses (or its characters' when the lexicon lacks it),
/// an English word's stem.
fn push_word_concepts(lexicon: &Lexicon, word: &str, hash: u64, out: &mut Vec<u64>) {
    if word.chars().any(is_ideograph) {
        if std::ptr::eq(lexicon, Lexicon::embedded()) {
            IDEOGRAPH_CONCEPTS.with(|cache| cache.borrow_mut().push(lexicon, word, hash, out));
        } else {
            push_ideograph_concepts(lexicon, word, hash, out);
        }
    } else {
        // A hyphenated compound stands for its parts ("client-server": client, server; a translation
        // renders them as words of their own, 客户端 服务器), as a Chinese compound for its parts'
        // glosses; one whose parts stand for nothing ("d-d-a") for itself, as a word.
        let before = out.len();
        if word.contains('-') {
            for part in word.split('-').filter(|p| !p.is_empty()) {
                if let Some((_, c)) = english_concept(part, word_hash(part)) {
                    out.push(c);
                }
            }
        }
        if out.len() == before {
            if let Some((generality, c)) = english_concept(word, hash) {
                out.push(c);
                // `english_concept` gives the embedded lexicon's generality: no second probe.
                let unknown = if std::ptr::eq(lexicon, Lexicon::embedded()) {
                    generality == 0
                } else {
                    lexicon.generality(c) == 0
                };
                if unknown {
                    out.extend(closed_compound(lexicon, word, hash).into_iter().flatten());
                }
            }
        }
    }
}

/// The concepts of the two words a closed English compound the lexicon does not know is made of
/// ("spellchecking": spell, check; "autorecovery": auto, recovery), when it splits into two such words
/// of at least three letters that the lexicon glosses (the most even split); remembered per thread
/// by the word's hash.
fn closed_compound(lexicon: &Lexicon, word: &str, hash: u64) -> Option<[u64; 2]> {
    thread_local! {
        static CACHE: std::cell::RefCell<rustc_hash::FxHashMap<u64, Option<[u64; 2]>>> =
            std::cell::RefCell::new(rustc_hash::FxHashMap::default());
    }
    const PART: usize = 3;
    if word.len() < 2 * PART || !word.bytes().all(|b| b.is_ascii_lowercase()) {
        return None;
    }
    let known = |part: &str| {
        let s = stem(part);
        let c = concept(&s);
        (s.len() > 1 && lexicon.generality(c) > 0).then_some(c)
    };
    let split = || {
        let mut best: Option<(usize, [u64; 2])> = None;
        for i in PART..=word.len() - PART {
            let shorter = i.min(word.len() - i);
            if best.is_some_and(|(b, _)| b >= shorter) {
                continue;
            }
            if let (Some(a), Some(b)) = (known(&word[..i]), known(&word[i..])) {
                best = Some((shorter, [a, b]));
            }
        }
        best.map(|(_, parts)| parts)
    };
    if !std::ptr::eq(lexicon, Lexicon::embedded()) {
        return split();
    }
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some(&c) = cache.get(&hash) {
            return c;
        }
        let c = split();
        if cache.len() >= 1 << 16 {
            cache.clear();
        }
        cache.insert(hash, c);
        c
    })
}

thread_local! {
    /// [`push_ideograph_concepts`] of the embedded lexicon, remembered per thread.
    static IDEOGRAPH_CONCEPTS: std::cell::RefCell<WordConcepts> =
        std::cell::RefCell::new(WordConcepts::default());
}

/// Ideograph words' concepts by the word's hash (as [`english_concept`] remembers stems): a text
/// repeats its words, and a compound's concepts take a lookup of each of its parts, sorted. The hash
/// is the word table's key, unique among its words.
#[derive(Default)]
struct WordConcepts {
    /// Each word's `(start, count)` in `pool`.
    words: rustc_hash::FxHashMap<u64, (u32, u32)>,
    pool: Vec<u64>,
}

impl WordConcepts {
    /// Words remembered at most; then the cache starts again.
    const WORDS: usize = 1 << 16;

    fn push(&mut self, lexicon: &Lexicon, word: &str, hash: u64, out: &mut Vec<u64>) {
        if let Some(&(start, count)) = self.words.get(&hash) {
            let start = start as usize;
            out.extend_from_slice(&self.pool[start..start + count as usize]);
            return;
        }
        let start = out.len();
        push_ideograph_concepts(lexicon, word, hash, out);
        if self.words.len() >= Self::WORDS || self.pool.len() >= u32::MAX as usize / 2 {
            self.words.clear();
            self.pool.clear();
        }
        let at = self.pool.len() as u32;
        self.pool.extend_from_slice(&out[start..]);
        self.words.insert(hash, (at, (out.len() - start) as u32));
    }
}

/// An ideograph word's concepts, sorted and distinct: its glosses, with those of the dictionary words
/// a compound of three or more characters is made of; a word the lexicon lacks, its characters'.
fn push_ideograph_concepts(lexicon: &Lexicon, word: &str, hash: u64, out: &mut Vec<u64>) {
    let start = out.len();
    let glosses = lexicon.translations_of(hash);
    out.extend(glosses.iter());
    let chars: Vec<char> = word.chars().collect();
    if chars.len() >= 3 {
        push_parts(lexicon, &chars, out);
    } else if glosses.is_empty() {
        for c in &chars {
            out.extend(lexicon.translations(c.encode_utf8(&mut [0; 4])).iter());
        }
    }
    out[start..].sort_unstable();
    let mut kept = start;
    for i in start..out.len() {
        if kept == start || out[kept - 1] != out[i] {
            out[kept] = out[i];
            kept += 1;
        }
    }
    out.truncate(kept);
}

/// Add the glosses of the dictionary words a compound is made of (管理工具: 管理 and 工具), longest first
/// from the left, each at least two characters and shorter than the compound; a compound with no such
/// part, its characters' glosses.
fn push_parts(lexicon: &Lexicon, chars: &[char], out: &mut Vec<u64>) {
    let before = out.len();
    let mut i = 0;
    let mut word = String::new();
    while i < chars.len() {
        let mut taken = 1;
        for len in (2..=(chars.len() - i).min(chars.len() - 1)).rev() {
            word.clear();
            word.extend(&chars[i..i + len]);
            let glosses = lexicon.translations(&word);
            if !glosses.is_empty() {
                out.extend(glosses.iter());
                taken = len;
                break;
            }
        }
        i += taken;
    }
    if out.len() == before {
        for c in chars {
            out.extend(lexicon.translations(c.encode_utf8(&mut [0; 4])).iter());
        }
    }
}

/// The language of a normalised text: Chinese when at least a fifth of its letters are ideographs.
pub fn language_of(normalized: &str) -> Language {
    language_of_letters(Letters::of(normalized))
}

/// [`language_of`] a text whose letters are counted.
pub fn language_of_letters(letters: Letters) -> Language {
    if letters.mostly_chinese() {
        Language::Chinese
    } else {
        Language::English
    }
}

/// The language of a sentence from its letters and, only when they leave it open (some ideographs,
/// fewer than a fifth of its letters), its paragraph's language (`paragraph`, asked then). A sentence
/// of a Chinese paragraph with any ideograph is Chinese, however many Latin letters its commands,
/// paths and names hold ("安装 libpam-ldap 会自动适应 /etc/pam.d/common-auth 文件中的默认 PAM
/// 配置。" has 16 ideographs and 71 Latin letters); otherwise a sentence is Chinese when at least a
/// fifth of its letters are ideographs, as a paragraph is ([`language_of`]).
pub fn sentence_language(letters: Letters, paragraph: impl FnOnce() -> Language) -> Language {
    if letters.ideographs > 0 && !letters.mostly_chinese() && paragraph() == Language::Chinese {
        Language::Chinese
    } else {
        language_of_letters(letters)
    }
}

/// Sentence bounds (in `char`s) of a paragraph: after `。！？；!?`, and after `.` or `;` followed by
/// whitespace, an ideograph or the end; closing quotes and brackets after the stop stay with the
/// sentence, and the whitespace between sentences with none.
pub fn split(paragraph: &str) -> Vec<(usize, usize)> {
    split_chars(&paragraph.chars().collect::<Vec<char>>())
}

/// [`split`] of a paragraph's characters.
fn split_chars(chars: &[char]) -> Vec<(usize, usize)> {
    let closing = |c: char| matches!(c, '”' | '’' | '"' | '\'' | ')' | '）' | '」' | '』');
    let mut out = Vec::new();
    let mut push = |mut s: usize, e: usize| {
        while s < e && chars[s].is_whitespace() {
            s += 1;
        }
        if s < e {
            out.push((s, e));
        }
    };
    let (mut start, mut i) = (0, 0);
    while i < chars.len() {
        let mut end = i + 1;
        while end < chars.len() && closing(chars[end]) {
            end += 1;
        }
        let stop = match chars[i] {
            '。' | '！' | '？' | '；' | '!' | '?' => true,
            // Chinese text ends sentences with an ASCII full stop too, with no space after it.
            '.' | ';' => {
                end == chars.len() || chars[end].is_whitespace() || is_ideograph(chars[end])
            }
            _ => false,
        };
        if stop {
            push(start, end);
            start = end;
            i = end;
        } else {
            i += 1;
        }
    }
    push(start, chars.len());
    out
}

#[cfg(test)]
mod tests;
