//! The accept loop: each connection served by hyper's HTTP/1 server with the limits
//! `axum::serve` lacks. A request's header must arrive within the header timeout and its body
//! within the body timeout; a connection on which nothing is read or written for the idle
//! timeout is closed (a half-open request is never held forever); one address may hold only
//! so many connections at once (a websocket counts until it closes).

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
pub async fn serve(tcp: TcpListener, router: Router, limits: ConnectionLimits) {
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
        let Some(counted) = open.enter(peer.ip(), limits.per_address) else {
            tokio::spawn(refuse(stream, limits.per_address));
            continue;
        };
        let _ = stream.set_nodelay(true);
        tokio::spawn(connection(stream, peer, counted, router.clone(), limits));
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
        req.extensions_mut().insert(ConnectInfo(peer));
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
