//! The players' guides (`docs/rules/*.md`) rendered to HTML on the server with pulldown-cmark:
//! every heading gets the id GitHub gives it (so the guides' own `#...` links work both on
//! GitHub and here), and links between guides (`little-cheops.md#16-...`) become the served
//! pages (`/rules/little-cheops#16-...`). Raw HTML in a guide is shown as text, never run.

use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag, TagEnd};
use std::collections::HashMap;

/// A guide rendered to HTML, with the links it had to leave out (a target outside the
/// guides); the guide-link test requires none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// The article's HTML.
    pub html: String,
    /// Link targets that name no guide, shown as plain text.
    pub dropped: Vec<String>,
}

/// The guide shown at `/rules/{variant}`: its own file, else its base game's
/// (`little-cheops-imperial` falls back to `little-cheops`).
pub fn guide_for(variant: &str) -> Option<&'static str> {
    let base = variant.strip_suffix("-imperial").unwrap_or(variant);
    crate::pages::RULES
        .iter()
        .find(|(name, _)| *name == variant)
        .or_else(|| crate::pages::RULES.iter().find(|(name, _)| *name == base))
        .map(|(_, text)| *text)
}

/// GitHub's anchor of a heading: lower case, spaces to hyphens, punctuation dropped.
pub fn slug(text: &str) -> String {
    text.trim()
        .chars()
        .flat_map(char::to_lowercase)
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Where a link of a guide leads on this site, or `None` when it names nothing served.
fn target(href: &str) -> Option<String> {
    let lower = href.to_ascii_lowercase();
    if lower.starts_with("https://") || lower.starts_with("http://") || lower.starts_with("mailto:")
    {
        return Some(href.to_string());
    }
    if href.starts_with('#') || href.starts_with("/rules/") {
        return Some(href.to_string());
    }
    // another guide, `name.md` or `./name.md`, with or without a fragment
    let (path, fragment) = match href.split_once('#') {
        Some((p, f)) => (p, Some(f)),
        None => (href, None),
    };
    let name = path
        .strip_prefix("./")
        .unwrap_or(path)
        .strip_suffix(".md")?;
    if !crate::pages::RULES.iter().any(|(n, _)| *n == name) {
        return None;
    }
    Some(match fragment {
        Some(f) => format!("/rules/{name}#{f}"),
        None => format!("/rules/{name}"),
    })
}

/// Where a guide's image is served: a file of the pages' folder (`crates/server/web/...` as
/// the guides link it for readers of the repository, or `/static/...`), else `None`.
fn image_target(src: &str) -> Option<String> {
    let mut rest = src;
    while let Some(r) = rest.strip_prefix("../") {
        rest = r;
    }
    let path = rest
        .strip_prefix("crates/server/web/")
        .or_else(|| src.strip_prefix("/static/"))?;
    let clean = !path.is_empty()
        && !path
            .split('/')
            .any(|p| p.is_empty() || p == "." || p == "..")
        && path
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '-' | '_'));
    clean.then(|| format!("/static/{path}"))
}

/// Renders a guide's Markdown.
pub fn render(markdown: &str) -> Rendered {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut events: Vec<Event> = Parser::new_ext(markdown, options).collect();
    let mut dropped = Vec::new();
    let mut used: HashMap<String, usize> = HashMap::new();
    // Links that lead nowhere become text: their start and end events are removed.
    let mut drop_ends = 0usize;
    let mut drop_image_ends = 0usize;
    let mut i = 0;
    while i < events.len() {
        match &events[i] {
            Event::Start(Tag::Heading { .. }) => {
                let mut text = String::new();
                for e in &events[i + 1..] {
                    match e {
                        Event::End(TagEnd::Heading(_)) => break,
                        Event::Text(t) | Event::Code(t) => text.push_str(t),
                        _ => {}
                    }
                }
                let base = slug(&text);
                let n = used.entry(base.clone()).or_insert(0);
                let id = if *n == 0 {
                    base.clone()
                } else {
                    format!("{base}-{n}")
                };
                *n += 1;
                if let Event::Start(Tag::Heading { id: slot, .. }) = &mut events[i] {
                    *slot = Some(CowStr::from(id));
                }
                i += 1;
            }
            Event::Start(Tag::Link { dest_url, .. }) => match target(dest_url) {
                Some(t) => {
                    if let Event::Start(Tag::Link { dest_url, .. }) = &mut events[i] {
                        *dest_url = CowStr::from(t);
                    }
                    i += 1;
                }
                None => {
                    dropped.push(dest_url.to_string());
                    events.remove(i);
                    drop_ends += 1;
                }
            },
            Event::Start(Tag::Image { dest_url, .. }) => match image_target(dest_url) {
                Some(t) => {
                    if let Event::Start(Tag::Image { dest_url, .. }) = &mut events[i] {
                        *dest_url = CowStr::from(t);
                    }
                    i += 1;
                }
                // An image from elsewhere: its description as text.
                None => {
                    dropped.push(dest_url.to_string());
                    events.remove(i);
                    drop_image_ends += 1;
                }
            },
            Event::End(TagEnd::Image) if drop_image_ends > 0 => {
                events.remove(i);
                drop_image_ends -= 1;
            }
            Event::End(TagEnd::Link) if drop_ends > 0 => {
                // links do not nest, so the next end closes the dropped link
                events.remove(i);
                drop_ends -= 1;
            }
            Event::Html(h) | Event::InlineHtml(h) => {
                events[i] = Event::Text(h.clone());
                i += 1;
            }
            _ => i += 1,
        }
    }
    let mut out = String::new();
    html::push_html(&mut out, events.into_iter());
    Rendered { html: out, dropped }
}

/// The heading's title of a guide (its first `# ` line), for the page's title.
pub fn title(markdown: &str) -> Option<&str> {
    markdown
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .map(str::trim)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_githubs() {
        assert_eq!(
            slug("6. Jumps: the Knight and the Master's screen"),
            "6-jumps-the-knight-and-the-masters-screen"
        );
        assert_eq!(slug("2.1 Common"), "21-common");
        assert_eq!(
            slug("16. Deputies and sealed papers: appointment (Imperial)"),
            "16-deputies-and-sealed-papers-appointment-imperial"
        );
    }

    #[test]
    fn links_between_guides_lead_to_the_served_pages() {
        let r = render("See [the guide](little-cheops.md#16-deputies) and [chess](./chess.md).");
        assert_eq!(
            r.html,
            "<p>See <a href=\"/rules/little-cheops#16-deputies\">the guide</a> and <a href=\"/rules/chess\">chess</a>.</p>\n"
        );
        assert!(r.dropped.is_empty());
    }

    #[test]
    fn a_link_to_no_guide_is_text_and_reported() {
        let r = render("Read [the code](../../crates/cheops/src/lib.rs) now.");
        assert_eq!(r.html, "<p>Read the code now.</p>\n");
        assert_eq!(
            r.dropped,
            vec!["../../crates/cheops/src/lib.rs".to_string()]
        );
    }

    #[test]
    fn headings_get_ids_and_repeats_are_numbered() {
        let r = render("# Top\n\n## Moves\n\n## Moves\n");
        assert_eq!(
            r.html,
            "<h1 id=\"top\">Top</h1>\n<h2 id=\"moves\">Moves</h2>\n<h2 id=\"moves-1\">Moves</h2>\n"
        );
    }

    #[test]
    fn images_come_from_the_pages_folder_only() {
        let r = render("![a torus](../../crates/server/web/img/vyrt-torus.png) ![x](https://elsewhere.example/x.png) ![y](../../crates/server/web/../secret)");
        assert!(
            r.html
                .contains(r#"<img src="/static/img/vyrt-torus.png" alt="a torus" />"#),
            "{}",
            r.html
        );
        assert!(!r.html.contains("elsewhere"), "{}", r.html);
        assert!(!r.html.contains("secret"), "{}", r.html);
        assert!(r.html.contains('x') && r.html.contains('y'));
    }

    #[test]
    fn raw_html_is_shown_as_text() {
        let r = render("a <script>alert(1)</script> b\n\n<div onclick=x>c</div>\n");
        assert!(!r.html.contains("<script"), "{}", r.html);
        assert!(!r.html.contains("<div"), "{}", r.html);
        assert!(r.html.contains("&lt;script&gt;"), "{}", r.html);
    }
}
