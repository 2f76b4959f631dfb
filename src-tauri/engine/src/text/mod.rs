//! Text processing of paragraphs as read (by `extract`): normalisation, the word tokens the paragraph
//! SimHash is built from, and the character/word units that shingles and span alignment work on.

pub mod normalize;
pub mod script;
pub mod tokens;
pub mod units;

pub use normalize::{non_ws_chars, normalize};
pub use tokens::Tokenizer;
pub use units::{units, units_and_normalized, ReadParagraph, Unit};
