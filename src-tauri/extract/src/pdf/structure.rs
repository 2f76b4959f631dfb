//! Tagged PDFs' logical structure: which paragraph-level structure element (`P`, `H1`, `LI`, `TD`, a
//! `Div` holding text …) each marked-content sequence of a page belongs to.
//!
//! Word's and Chromium's PDFs (and LibreOffice's when asked) are tagged: the text of each paragraph is
//! drawn inside `BDC` sequences with a `/MCID`, and the document's structure tree says, through its
//! `/ParentTree` and the page's `/StructParents`, which element holds each sequence. A paragraph that
//! crosses a page is one element with a sequence on each page, which is what the page's geometry alone
//! cannot show when the last line before the break happens to end near the margin.

use lopdf::{Dictionary, Document, Object, ObjectId};

/// Number-tree and parent levels followed at most (a hostile file's loops end here).
const MAX_DEPTH: usize = 16;

/// Marked-content ids of one page mapped at most (beyond them the page reads untagged).
const MAX_MCIDS: usize = 100_000;

/// Structure types inside a paragraph (after the document's role map): text in one of them belongs to
/// the element around it. A list item's label and body belong to the item.
const INLINE_TYPES: &[&[u8]] = &[
    b"Span",
    b"Link",
    b"Em",
    b"Strong",
    b"Code",
    b"Quote",
    b"Reference",
    b"BibEntry",
    b"Annot",
    b"Ruby",
    b"RB",
    b"RT",
    b"RP",
    b"Warichu",
    b"WT",
    b"WP",
    b"Sub",
    b"Lbl",
    b"LBody",
];

/// The paragraph-level element of each marked-content id of one page, as the element's object number
/// (0 where unknown).
#[derive(Debug, Default)]
pub(super) struct PageStructure {
    by_mcid: Vec<u32>,
}

impl PageStructure {
    /// Read the page's entry in the document's structure tree (empty for an untagged page).
    pub(super) fn of_page(doc: &Document, page: Option<&Dictionary>) -> PageStructure {
        let (Some(page), Ok(root)) = (page, struct_tree_root(doc)) else {
            return PageStructure::default();
        };
        let Some(key) = page
            .get(b"StructParents")
            .ok()
            .and_then(|o| o.as_i64().ok())
        else {
            return PageStructure::default();
        };
        let Some(parents) = root
            .get(b"ParentTree")
            .ok()
            .and_then(|o| resolve(doc, o).as_dict().ok())
            .and_then(|tree| number_tree_get(doc, tree, key, 0))
            .and_then(|o| resolve(doc, o).as_array().ok())
        else {
            return PageStructure::default();
        };
        let role_map = root
            .get(b"RoleMap")
            .ok()
            .and_then(|o| resolve(doc, o).as_dict().ok());
        let by_mcid = parents
            .iter()
            .take(MAX_MCIDS)
            .map(|element| match element {
                Object::Reference(id) => block_of(doc, *id, role_map),
                _ => 0,
            })
            .collect();
        PageStructure { by_mcid }
    }

    /// The element that holds marked-content id `mcid` (0 where unknown).
    pub(super) fn element(&self, mcid: i64) -> u32 {
        usize::try_from(mcid)
            .ok()
            .and_then(|i| self.by_mcid.get(i))
            .copied()
            .unwrap_or(0)
    }
}

fn struct_tree_root(doc: &Document) -> lopdf::Result<&Dictionary> {
    let root = doc.catalog()?.get(b"StructTreeRoot")?;
    resolve(doc, root).as_dict()
}

fn resolve<'a>(doc: &'a Document, object: &'a Object) -> &'a Object {
    match object {
        Object::Reference(id) => doc.get_object(*id).unwrap_or(object),
        other => other,
    }
}

/// Look `key` up in a number tree (`/Nums` pairs, or `/Kids` with `/Limits`).
fn number_tree_get<'a>(
    doc: &'a Document,
    node: &'a Dictionary,
    key: i64,
    depth: usize,
) -> Option<&'a Object> {
    if depth > MAX_DEPTH {
        return None;
    }
    if let Ok(nums) = node.get(b"Nums").and_then(Object::as_array) {
        return nums
            .chunks_exact(2)
            .find(|pair| pair.first().and_then(|k| k.as_i64().ok()) == Some(key))
            .and_then(|pair| pair.get(1));
    }
    let kids = node.get(b"Kids").and_then(Object::as_array).ok()?;
    kids.iter().find_map(|kid| {
        let kid = resolve(doc, kid).as_dict().ok()?;
        let within = match kid.get(b"Limits").and_then(Object::as_array) {
            Ok(limits) => match (limits.first(), limits.get(1)) {
                (Some(lo), Some(hi)) => {
                    lo.as_i64().is_ok_and(|lo| lo <= key) && hi.as_i64().is_ok_and(|hi| key <= hi)
                }
                _ => true,
            },
            Err(_) => true,
        };
        within
            .then(|| number_tree_get(doc, kid, key, depth + 1))
            .flatten()
    })
}

/// The element that holds the text of element `id`: `id` itself, or, for an inline element (a span,
/// a link, a list item's label or body, a `NonStruct` wrapping one run of text), the nearest element
/// around it that is not inline. Grouping elements are never looked through: two `Div`s are two
/// paragraphs even inside one `BlockQuote`.
fn block_of(doc: &Document, mut id: ObjectId, role_map: Option<&Dictionary>) -> u32 {
    for depth in 0..MAX_DEPTH {
        let Ok(element) = doc.get_dictionary(id) else {
            return 0;
        };
        let kind = element.get(b"S").and_then(Object::as_name).ok();
        // Chromium wraps every run of text in a `NonStruct` of its own: the element around it counts.
        let wrapper = depth == 0 && kind == Some(b"NonStruct".as_slice());
        if !wrapper && !kind.is_some_and(|k| is_inline(k, role_map)) {
            return id.0;
        }
        match element.get(b"P") {
            Ok(Object::Reference(parent)) => id = *parent,
            _ => return id.0,
        }
    }
    0
}

fn is_inline<'a>(mut kind: &'a [u8], role_map: Option<&'a Dictionary>) -> bool {
    for _ in 0..4 {
        if INLINE_TYPES.contains(&kind) {
            return true;
        }
        match role_map.and_then(|m| m.get(kind).and_then(Object::as_name).ok()) {
            Some(mapped) if mapped != kind => kind = mapped,
            _ => return false,
        }
    }
    false
}
