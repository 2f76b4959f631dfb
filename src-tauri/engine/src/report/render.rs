//! One way to write any report: every report model (the check's [`Report`], the class's
//! [`ClassReport`], the library's [`DuplicatesReport`], the benchmark's `EvalReport`) implements
//! [`Render`], says which formats it has, and is written by [`Render::render`]. A front end asks
//! [`Render::supports`] before the work, so a format a report does not have is refused in one place with
//! one message.

use serde::Serialize;

use super::class::ClassReport;
use super::duplicates::DuplicatesReport;
use super::lang::Lang;
use super::Report;
use crate::error::{Error, Result};

/// The formats reports are written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OutputFormat {
    /// For a terminal.
    Text,
    /// The report model itself, for programs.
    Json,
    /// A self-contained page (every document text escaped).
    Html,
    /// A paginated A4 document with its font embedded.
    Pdf,
}

impl OutputFormat {
    /// The format's name, as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::Text => "text",
            OutputFormat::Json => "json",
            OutputFormat::Html => "html",
            OutputFormat::Pdf => "pdf",
        }
    }

    /// Binary formats go to a file, never to a terminal.
    pub fn needs_file(self) -> bool {
        self == OutputFormat::Pdf
    }
}

/// A report that can be written out.
pub trait Render: Serialize {
    /// What the report is, for messages ("a class comparison").
    const WHAT: &'static str;
    /// The formats it has.
    const FORMATS: &'static [OutputFormat];

    /// The report in `format` (never JSON, which [`Render::render`] writes for every report alike).
    /// Called only with a format of [`Render::FORMATS`].
    fn render_as(&self, format: OutputFormat, lang: Lang) -> Result<Vec<u8>>;

    /// Whether the report has `format`; if not, the error says which formats it has.
    fn supports(format: OutputFormat) -> Result<()> {
        if Self::FORMATS.contains(&format) {
            return Ok(());
        }
        let names: Vec<&str> = Self::FORMATS.iter().map(|f| f.name()).collect();
        Err(Error::InvalidSetting {
            name: "format",
            reason: format!(
                "{} has no {} report: use {}",
                Self::WHAT,
                format.name(),
                names.join(", ")
            ),
        })
    }

    /// The report as pretty-printed JSON.
    fn to_json(&self) -> String {
        // OK because reports hold only strings, numbers, maps with string keys and vectors:
        // serialisation cannot fail.
        serde_json::to_string_pretty(self).expect("report serialises")
    }

    /// The report in `format`, in `lang` where the format has words of its own.
    fn render(&self, format: OutputFormat, lang: Lang) -> Result<Vec<u8>> {
        Self::supports(format)?;
        match format {
            OutputFormat::Json => Ok((self.to_json() + "\n").into_bytes()),
            _ => self.render_as(format, lang),
        }
    }
}

/// The error of a format a report's [`Render::render_as`] was not meant to get.
pub(crate) fn not_meant<R: Render>(format: OutputFormat) -> Error {
    R::supports(format)
        .err()
        .unwrap_or(Error::Internal("a supported format was not rendered"))
}

impl Render for Report {
    const WHAT: &'static str = "a check";
    const FORMATS: &'static [OutputFormat] = &[
        OutputFormat::Text,
        OutputFormat::Json,
        OutputFormat::Html,
        OutputFormat::Pdf,
    ];

    fn render_as(&self, format: OutputFormat, lang: Lang) -> Result<Vec<u8>> {
        match format {
            OutputFormat::Text => Ok(super::text::render(self, lang).into_bytes()),
            OutputFormat::Html => Ok(super::html::render(self, lang).into_bytes()),
            OutputFormat::Pdf => super::pdf::render(self, lang),
            OutputFormat::Json => Err(not_meant::<Self>(format)),
        }
    }
}

impl Render for ClassReport {
    const WHAT: &'static str = "a class comparison";
    const FORMATS: &'static [OutputFormat] =
        &[OutputFormat::Text, OutputFormat::Json, OutputFormat::Html];

    fn render_as(&self, format: OutputFormat, lang: Lang) -> Result<Vec<u8>> {
        match format {
            OutputFormat::Text => Ok(super::class::render_text(self, lang).into_bytes()),
            OutputFormat::Html => Ok(super::class::render(self, lang).into_bytes()),
            _ => Err(not_meant::<Self>(format)),
        }
    }
}

impl Render for DuplicatesReport {
    const WHAT: &'static str = "a duplicates search";
    const FORMATS: &'static [OutputFormat] =
        &[OutputFormat::Text, OutputFormat::Json, OutputFormat::Html];

    fn render_as(&self, format: OutputFormat, lang: Lang) -> Result<Vec<u8>> {
        match format {
            OutputFormat::Text => Ok(self.render_text(lang).into_bytes()),
            OutputFormat::Html => Ok(self.render_html(lang).into_bytes()),
            _ => Err(not_meant::<Self>(format)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_format_a_report_lacks_is_refused_with_the_formats_it_has() {
        assert!(Report::supports(OutputFormat::Pdf).is_ok());
        let e = ClassReport::supports(OutputFormat::Pdf)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "invalid format: a class comparison has no pdf report: use text, json, html"
        );
        assert!(DuplicatesReport::supports(OutputFormat::Pdf).is_err());
        assert!(OutputFormat::Pdf.needs_file() && !OutputFormat::Html.needs_file());
    }
}
