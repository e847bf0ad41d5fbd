//! The accept loop: each connection served by hyper's HTTP/1 server with the limits
//! `axum::serve` lacks. A request's header must arrive within the header timeout and its body
//! within the body timeout; a connection on which nothing is read or written for the idle
//! timeout is closed (a half-open request is never held forever); one address may hold only
//! so many connections at once (a websocket counts until it closes). Behind a trusted proxy
//! (`--trusted-proxy`) a request's address is the player's, read from `X-Forwarded-For`.

use axum::body::Body;
use axum::extract::connect_info::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::future::Future as _;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tower::ServiceExt as _;

/// The limits of every connection.
#[derive(Clone, Copy, Debug)]
pub struct ConnectionLimits {
    /// A request's header (from the connection's start, or the previous answer) must arrive
    /// within this.
    pub header: Duration,
    /// A request's whole body must arrive within this after its header.
    pub body: Duration,
    /// A connection with nothing read or written for this long is closed.
    pub idle: Duration,
    /// Connections one address may hold open at once.
    pub per_address: usize,
}

/// The proxies whose `X-Forwarded-For` the server believes (`serve --trusted-proxy`).
#[derive(Clone, Debug, Default)]
pub struct TrustedProxies(Arc<[ipnet::IpNet]>);

impl TrustedProxies {
    /// Proxies at these addresses or networks.
    pub fn new(nets: &[ipnet::IpNet]) -> Self {
        TrustedProxies(nets.iter().copied().collect())
    }

    /// Whether `ip` is one of the trusted proxies.
    pub fn trusts(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        self.0.iter().any(|net| net.contains(&ip))
    }

    /// The address a request stands for: from a trusted proxy, the nearest address in
    /// `forwarded` (the `X-Forwarded-For` values, oldest first) that is not itself a trusted
    /// proxy, read from the right because only the entries our proxies appended are true (a
    /// client may put anything at the left); otherwise, or when there is none, `peer`.
    pub fn client(&self, peer: IpAddr, forwarded: &[&str]) -> IpAddr {
        if !self.trusts(peer) {
            return peer;
        }
        let mut client = peer;
        for entry in forwarded
            .iter()
            .flat_map(|h| h.split(','))
            .map(str::trim)
            .rev()
        {
            let Some(ip) = parse_forwarded(entry) else {
                // Garbage where our proxy writes addresses: stop at the last good one.
                return client;
            };
            client = ip;
            if !self.trusts(ip) {
                return ip;
            }
        }
        client
    }
}

/// One `X-Forwarded-For` entry: an address, IPv6 perhaps in brackets with a port, IPv4
/// perhaps with a port.
fn parse_forwarded(entry: &str) -> Option<IpAddr> {
    if let Ok(ip) = entry.parse::<IpAddr>() {
        return Some(ip.to_canonical());
    }
    entry
        .parse::<SocketAddr>()
        .ok()
        .map(|s| s.ip().to_canonical())
}

/// Reads a trusted proxy: an address (`127.0.0.1`, `::1`) or a network (`10.0.0.0/8`).
pub fn parse_proxy(text: &str) -> Result<ipnet::IpNet, String> {
    let text = text.trim();
    if let Ok(ip) = text.parse::<IpAddr>() {
        return Ok(ipnet::IpNet::from(ip.to_canonical()));
    }
    text.parse::<ipnet::IpNet>().map_err(|_| {
        format!("'{text}' is not an address or a network such as 127.0.0.1 or 10.0.0.0/8")
    })
}

/// The connections open per address.
#[derive(Default)]
struct Open(Mutex<HashMap<IpAddr, usize>>);

/// One connection counted against its address until it is dropped.
struct Counted {
    open: Arc<Open>,
    ip: IpAddr,
}

impl Open {
    fn enter(self: &Arc<Self>, ip: IpAddr, most: usize) -> Option<Counted> {
        let mut map = self.0.lock().ok()?;
        let n = map.entry(ip).or_insert(0);
        if *n >= most {
            return None;
        }
        *n += 1;
        crate::metrics::connections(1);
        Some(Counted {
            open: self.clone(),
            ip,
        })
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        crate::metrics::connections(-1);
        if let Ok(mut map) = self.open.0.lock() {
            if let Some(n) = map.get_mut(&self.ip) {
                *n -= 1;
                if *n == 0 {
                    map.remove(&self.ip);
                }
            }
        }
    }
}

/// A TCP stream that notes when it last read or wrote, and holds its address's count for as
/// long as it lives (through a websocket upgrade too).
struct Watched {
    stream: TcpStream,
    started: Instant,
    last: Arc<AtomicU64>,
    _counted: Counted,
}

impl Watched {
    fn touch(&self) {
        let ms = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last.store(ms, Ordering::Relaxed);
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.stream).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.touch();
        }
        r
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let r = Pin::new(&mut self.stream).poll_write(cx, data);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.touch();
        }
        r
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let r = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.touch();
        }
        r
    }
    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

/// A request body that fails once its deadline passes: a client sending its body a byte at
/// a time cannot hold a request open longer than the body timeout.
struct DeadlineBody {
    inner: Incoming,
    deadline: Pin<Box<tokio::time::Sleep>>,
}

impl hyper::body::Body for DeadlineBody {
    type Data = hyper::body::Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;
    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        if let Poll::Ready(Some(frame)) = Pin::new(&mut self.inner).poll_frame(cx) {
            return Poll::Ready(Some(frame.map_err(Into::into)));
        }
        if self.inner.is_end_stream() {
            return Poll::Ready(None);
        }
        if self.deadline.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Some(Err(
                "the request body did not arrive within the body timeout".into(),
            )));
        }
        Poll::Pending
    }
    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }
    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner.size_hint()
    }
}

/// Serves `router` on `tcp` until the listener fails, each connection under `limits`.
/// A trusted proxy's connections are not counted against an address: each carries many players.
pub async fn serve(
    tcp: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    proxies: TrustedProxies,
) {
    let open = Arc::new(Open::default());
    loop {
        let (stream, peer) = match tcp.accept().await {
            Ok(c) => c,
            Err(e) => {
                // Out of descriptors (or a connection reset before it was accepted): wait a
                // little instead of spinning, and go on.
                crate::log(&format!("cannot accept a connection: {e}"));
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let most = if proxies.trusts(peer.ip()) {
            usize::MAX
        } else {
            limits.per_address
        };
        let Some(counted) = open.enter(peer.ip(), most) else {
            tokio::spawn(refuse(stream, limits.per_address));
            continue;
        };
        let _ = stream.set_nodelay(true);
        tokio::spawn(connection(
            stream,
            peer,
            counted,
            router.clone(),
            limits,
            proxies.clone(),
        ));
    }
}

/// Answers a connection over its address's limit with 429 and a sentence, then closes it.
async fn refuse(mut stream: TcpStream, most: usize) {
    use tokio::io::AsyncWriteExt as _;
    crate::metrics::refused_connection();
    let body = format!(
        "{{\"error\":\"this address has {most} connections open, the most allowed; close one first\"}}"
    );
    let answer = format!(
        "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(2), async {
        let _ = stream.write_all(answer.as_bytes()).await;
        let _ = stream.shutdown().await;
    })
    .await;
}

/// Serves one connection until it ends, is idle too long or breaks a timeout.
async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    counted: Counted,
    router: Router,
    limits: ConnectionLimits,
    proxies: TrustedProxies,
) {
    let last = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let io = Watched {
        stream,
        started,
        last: last.clone(),
        _counted: counted,
    };
    let body_timeout = limits.body;
    let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
        // The header is read only from a trusted proxy (most servers name none).
        let client = if proxies.trusts(peer.ip()) {
            let forwarded: Vec<&str> = req
                .headers()
                .get_all("x-forwarded-for")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .collect();
            SocketAddr::new(proxies.client(peer.ip(), &forwarded), peer.port())
        } else {
            peer
        };
        req.extensions_mut().insert(ConnectInfo(client));
        let req = req.map(|inner| {
            Body::new(DeadlineBody {
                inner,
                deadline: Box::pin(tokio::time::sleep(body_timeout)),
            })
        });
        router.clone().oneshot(req)
    });
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header)
        .serve_connection(TokioIo::new(io), service)
        .with_upgrades();
    tokio::pin!(conn);
    let idle_ms = u64::try_from(limits.idle.as_millis()).unwrap_or(u64::MAX);
    loop {
        let since = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let quiet = since.saturating_sub(last.load(Ordering::Relaxed));
        if quiet >= idle_ms {
            // Nothing read or written for the idle timeout: the connection is dropped (a
            // request in progress is abandoned with it).
            crate::metrics::timed_out("idle");
            return;
        }
        let wake = Duration::from_millis(idle_ms - quiet);
        tokio::select! {
            r = conn.as_mut() => {
                if let Err(e) = r {
                    if e.is_timeout() {
                        crate::metrics::timed_out("header");
                    }
                }
                return;
            }
            _ = tokio::time::sleep(wake) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn a_trusted_proxy_gives_the_nearest_untrusted_forwarded_address() {
        let proxies = TrustedProxies::new(&[
            parse_proxy("127.0.0.1").unwrap(),
            parse_proxy("10.0.0.0/8").unwrap(),
        ]);
        let nginx = ip("127.0.0.1");
        // nginx appends the player's address; a client's own entries stand to its left
        assert_eq!(
            proxies.client(nginx, &["1.2.3.4, 198.51.100.7"]),
            ip("198.51.100.7")
        );
        // a balancer inside 10/8 in front of nginx: skipped as trusted
        assert_eq!(
            proxies.client(nginx, &["198.51.100.7", "10.1.2.3"]),
            ip("198.51.100.7")
        );
        assert_eq!(
            proxies.client(nginx, &["[2001:db8::1]:4711"]),
            ip("2001:db8::1")
        );
        assert_eq!(
            proxies.client(nginx, &["198.51.100.7:5000"]),
            ip("198.51.100.7")
        );
        // no header, or only trusted entries: the nearest one known
        assert_eq!(proxies.client(nginx, &[]), nginx);
        assert_eq!(proxies.client(nginx, &["10.9.9.9"]), ip("10.9.9.9"));
        // garbage stops the walk at the last good address
        assert_eq!(
            proxies.client(nginx, &["198.51.100.7, nonsense, 10.0.0.2"]),
            ip("10.0.0.2")
        );
        // an IPv4 peer seen as IPv6-mapped is the same proxy
        assert!(proxies.trusts(ip("::ffff:127.0.0.1")));
        // anyone else's header is not believed
        assert_eq!(
            proxies.client(ip("203.0.113.9"), &["198.51.100.7"]),
            ip("203.0.113.9")
        );
        assert_eq!(
            TrustedProxies::default().client(nginx, &["198.51.100.7"]),
            nginx
        );
    }

    #[test]
    fn a_trusted_proxy_is_an_address_or_a_network() {
        assert_eq!(parse_proxy("::1").unwrap().to_string(), "::1/128");
        assert_eq!(parse_proxy("10.0.0.0/8").unwrap().to_string(), "10.0.0.0/8");
        assert_eq!(
            parse_proxy("nginx").unwrap_err(),
            "'nginx' is not an address or a network such as 127.0.0.1 or 10.0.0.0/8"
        );
    }
}
