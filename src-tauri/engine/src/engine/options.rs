//! The settings of the use cases and their defaults, validated here once: how files are read
//! ([`ReadOptions`]), how to check ([`CheckOptions`]) and how to compare a class ([`CompareOptions`]).

use std::path::PathBuf;

use crate::check::{CheckSettings, Method, TRANSLATION_THRESHOLD};
use crate::error::{Error, Result};
use crate::extract::{self, ExtractOptions};
use crate::report::SpanKind;

/// Matches shown per paragraph unless asked otherwise.
pub const DEFAULT_TOP: usize = 3;
/// Shortest copied passage that counts in Chinese text, in characters (the CNKI-style 13-character rule).
pub const DEFAULT_MIN_MATCH_CHARS: usize = 13;
/// Shortest copied passage that counts in other text, in words (WCopyfind's default).
pub const DEFAULT_MIN_MATCH_WORDS: usize = 6;

/// How files are read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Text encoding of .txt files (a WHATWG label such as `gb18030`, `big5`, `utf-16le`) instead of
    /// detecting it.
    pub encoding: Option<String>,
}

impl ReadOptions {
    pub(super) fn extract_options(&self) -> Result<ExtractOptions> {
        let encoding = match &self.encoding {
            None => None,
            Some(label) => Some(extract::txt::encoding_for_label(label).ok_or_else(|| {
                Error::InvalidSetting {
                    name: "encoding",
                    reason: format!("unknown encoding {label:?} (e.g. gb18030, big5, utf-16le)"),
                }
            })?),
        };
        Ok(ExtractOptions { encoding })
    }
}

/// How to check.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckOptions {
    pub method: Method,
    /// Report a match at or above this similarity; `None` takes the method's default
    /// ([`Method::default_threshold`]).
    pub threshold: Option<f64>,
    /// Matches reported per paragraph.
    pub top: usize,
    pub min_match_chars: usize,
    pub min_match_words: usize,
    /// Kinds of passage left out of the similarity ratio (`--exclude quotes,references`); none by
    /// default, so it equals the total ratio.
    pub exclude: Vec<SpanKind>,
    /// The writer: text of library documents with this author is their own earlier work (kind `own`,
    /// excluded with `own`).
    pub author: Option<String>,
    /// Search for copies by translation (Chinese ↔ English); on by default, and it finds something
    /// only when the library holds paragraphs of the other language.
    pub translation: bool,
    /// A translated copy is reported at or above this share of the paragraph; `None` takes
    /// [`TRANSLATION_THRESHOLD`].
    pub translation_threshold: Option<f64>,
    pub read: ReadOptions,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            method: Method::default(),
            threshold: None,
            top: DEFAULT_TOP,
            min_match_chars: DEFAULT_MIN_MATCH_CHARS,
            min_match_words: DEFAULT_MIN_MATCH_WORDS,
            exclude: Vec::new(),
            author: None,
            translation: true,
            translation_threshold: None,
            read: ReadOptions::default(),
        }
    }
}

/// A threshold is a share: between 0 and 1.
pub fn validate_threshold(threshold: f64) -> Result<f64> {
    if (0.0..=1.0).contains(&threshold) {
        Ok(threshold)
    } else {
        Err(Error::InvalidSetting {
            name: "threshold",
            reason: format!("must be between 0 and 1 (got {threshold})"),
        })
    }
}

impl CheckOptions {
    /// The threshold in force: the one given, or the method's default.
    pub fn threshold(&self) -> f64 {
        self.threshold
            .unwrap_or_else(|| self.method.default_threshold())
    }

    /// Validate every setting and turn them into the checker's settings.
    pub(super) fn validate(&self) -> Result<(CheckSettings, ExtractOptions)> {
        validate_threshold(self.threshold())?;
        let translation = self.translation_threshold.unwrap_or(TRANSLATION_THRESHOLD);
        if !(0.0..=1.0).contains(&translation) || translation == 0.0 {
            return Err(Error::InvalidSetting {
                name: "translation-threshold",
                reason: format!("must be above 0 and at most 1 (got {translation})"),
            });
        }
        // `top` may be 0: paragraphs are then flagged and counted with no match listed.
        for (name, value) in [
            ("min-match-chars", self.min_match_chars),
            ("min-match-words", self.min_match_words),
        ] {
            if value == 0 {
                return Err(Error::InvalidSetting {
                    name,
                    reason: "must be at least 1".into(),
                });
            }
        }
        let mut settings = CheckSettings {
            method: self.method,
            translation: self.translation.then_some(translation),
            ..CheckSettings::default()
        };
        settings.align.cjk.min_match = self.min_match_chars;
        settings.align.words.min_match = self.min_match_words;
        Ok((settings, self.read.extract_options()?))
    }
}

/// How to compare a class.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CompareOptions {
    /// The matching (minimum passage lengths, threshold, reading); the method is always the verified one.
    pub check: CheckOptions,
    /// Template documents (the assignment prompt, the school's cover page): their text is never shared.
    pub templates: Vec<PathBuf>,
    /// Also check every submission against the library, in the same run; the library's documents with
    /// the template role are then templates too.
    pub with_library: bool,
}
