//! The comparison methods: Tongwen's own and the seed papers' (named here, below the modules that run
//! them, so that `seeds` and `check` both can).

use serde::Serialize;

/// How paragraphs are compared: Tongwen's own method, or one of the seed papers' (`crate::seeds`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Shingle shortlist + span alignment; similarity = copied share of the paragraph.
    #[default]
    Verified,
    /// Paragraph SimHash only (seed 002); similarity = 1 - hamming/64.
    Simhash,
    /// SimHash indexed by four 16-bit blocks, candidates verified by word overlap (seed 001).
    SimhashBlocks,
    /// P-Simhash: TFC weights damped by co-occurrence, position signatures (seed 004).
    PSimhash,
    /// Paragraph topic-word fingerprints (seed 000).
    Drpkp,
    /// MinHash with 128 hash functions (seed 003's MinMultiHash).
    Minhash,
    /// MinHash with one hash function, the 128 smallest values (seed 003's MinOneHash).
    MinhashOne,
    /// Jaccard similarity of the word sets (seed 003).
    Jaccard,
    /// Shared words over the smaller word set (seed 003's Jaccard "based on the short article").
    Containment,
    /// Cosine similarity of term-frequency vectors (seed 003).
    Cosine,
}

impl Method {
    /// Every method, Tongwen's first.
    pub const ALL: [Method; 10] = [
        Method::Verified,
        Method::Simhash,
        Method::SimhashBlocks,
        Method::PSimhash,
        Method::Drpkp,
        Method::Minhash,
        Method::MinhashOne,
        Method::Jaccard,
        Method::Containment,
        Method::Cosine,
    ];

    /// The threshold a report uses unless told otherwise: a paragraph 30 % copied from one source
    /// (verified); SimHashes at most 12 bits apart (the seed papers' 0.8); signatures at most 3 bits
    /// apart for the methods whose papers say so (p-simhash, and drpkp's paragraphs; two documents
    /// by drpkp: 95 % of the shorter one's paragraphs matched); 0.8 of the words shared
    /// (simhash-blocks' verification, containment, cosine); a Jaccard similarity of 0.5 (003: "the
    /// threshold of traditional Jaccard is usually above 0.5").
    pub fn default_threshold(self) -> f64 {
        match self {
            Method::Verified => 0.3,
            Method::Simhash | Method::SimhashBlocks | Method::Containment | Method::Cosine => 0.8,
            Method::PSimhash | Method::Drpkp => 0.95,
            Method::Minhash | Method::MinhashOne | Method::Jaccard => 0.5,
        }
    }

    /// The threshold `library duplicates` uses unless told otherwise: with the verified method 0.8 at
    /// both levels (near copies, not shared quotations); a seed method's own default for the others.
    /// With [`Method::default_threshold`], every default threshold of the product is here.
    pub fn duplicates_threshold(self) -> f64 {
        match self {
            Method::Verified => 0.8,
            m => m.default_threshold(),
        }
    }

    /// The method's name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Method::Verified => "verified",
            Method::Simhash => "simhash",
            Method::SimhashBlocks => "simhash-blocks",
            Method::PSimhash => "p-simhash",
            Method::Drpkp => "drpkp",
            Method::Minhash => "minhash",
            Method::MinhashOne => "minhash-one",
            Method::Jaccard => "jaccard",
            Method::Containment => "containment",
            Method::Cosine => "cosine",
        }
    }

    /// The method named `name`.
    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.name() == name)
    }

    /// One of the seed papers' methods that the library does not store (`crate::seeds`): an index
    /// is built over the library's texts when it is used.
    pub fn is_seed(self) -> bool {
        !matches!(self, Method::Verified | Method::Simhash)
    }
}
