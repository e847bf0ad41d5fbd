//! The players' guides as served at `/rules/{variant}`: every link of every guide is followed
//! (issue 31 item 1): its page answers 200 and its `#fragment` is an id on that page.

mod common;

use common::start;
use std::collections::{BTreeMap, BTreeSet};

/// Every `href="..."` of a page, entities undone.
fn hrefs(html: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split_once('"').map(|(h, _)| h.replace("&amp;", "&")))
        .collect()
}

/// Every `id="..."` of a page.
fn ids(html: &str) -> BTreeSet<String> {
    html.split(" id=\"")
        .skip(1)
        .filter_map(|rest| rest.split_once('"').map(|(i, _)| i.to_string()))
        .collect()
}

/// The article of a rules page (the guide itself, without the page's frame).
fn article(html: &str) -> &str {
    let start = html.find("<article").unwrap_or(0);
    let end = html.find("</article>").unwrap_or(html.len());
    &html[start..end]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_link_of_every_guide_leads_to_a_page_and_an_id_on_it() {
    let s = start().await;
    let (_, list) = s.get("/api/variants", None).await;
    let variants: Vec<String> = list
        .as_array()
        .expect("a list of variants")
        .iter()
        .filter_map(|v| v["id"].as_str().map(str::to_string))
        .collect();
    assert_eq!(variants.len(), 5, "{variants:?}");
    let mut pages: BTreeMap<String, String> = BTreeMap::new();
    let mut fetch = async |path: &str| -> (u16, String) {
        if let Some(body) = pages.get(path) {
            return (200, body.clone());
        }
        let res = s
            .client
            .get(s.url(path))
            .send()
            .await
            .expect("the server answers");
        let status = res.status().as_u16();
        let body = res.text().await.expect("a body");
        if status == 200 {
            pages.insert(path.to_string(), body.clone());
        }
        (status, body)
    };
    let mut followed = 0;
    for v in &variants {
        let own = format!("/rules/{v}");
        let (status, page) = fetch(&own).await;
        assert_eq!(status, 200, "{own}");
        let guide = article(&page).to_string();
        assert!(guide.contains("<h1 id="), "{own} has a titled guide");
        let links = hrefs(&guide);
        assert!(!links.is_empty(), "{own} links somewhere");
        for href in links {
            assert!(
                !href.starts_with("http://") && !href.starts_with("https://"),
                "{own}: {href} leaves the site, which this test cannot follow"
            );
            let (path, fragment) = match href.split_once('#') {
                Some((p, f)) => (if p.is_empty() { own.as_str() } else { p }, Some(f)),
                None => (href.as_str(), None),
            };
            assert!(path.starts_with('/'), "{own}: {href} is not a site address");
            let (status, target) = fetch(path).await;
            assert_eq!(status, 200, "{own}: {href}");
            if let Some(f) = fragment {
                assert!(
                    ids(&target).contains(f),
                    "{own}: {href}: no id '{f}' on {path}"
                );
            }
            followed += 1;
        }
    }
    // chess 3, vyrt 1, cypher 1, little-cheops 2, little-cheops-imperial 23 (its contents)
    assert_eq!(followed, 30);
}

#[test]
fn no_guide_links_outside_the_guides() {
    for v in [
        "chess",
        "vyrt",
        "cypher",
        "little-cheops",
        "little-cheops-imperial",
    ] {
        let text = menagerie_server::guides::guide_for(v).expect("a guide");
        let r = menagerie_server::guides::render(text);
        assert_eq!(r.dropped, Vec::<String>::new(), "{v}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_game_has_no_rules_page() {
    let s = start().await;
    let res = s
        .client
        .get(s.url("/rules/xiangqi<b>"))
        .send()
        .await
        .expect("the server answers");
    assert_eq!(res.status().as_u16(), 404);
    let body = res.text().await.expect("a body");
    assert!(
        body.contains("There is no players' guide for 'xiangqi&lt;b&gt;'."),
        "{body}"
    );
}
