//! Never a hang on a server that stops answering: a watchdog over each connection's socket.
//!
//! The driver waits for the server's answer with no time limit, and neither TCP keep-alives nor the
//! kernel's user timeout notice a server process that is stopped (SIGSTOP) or a proxy that stops
//! forwarding: their kernels still acknowledge every packet. So every connection is watched while a
//! call is under way (from taking the connection to giving it back, see [`Watch::begin`]): when
//! nothing has moved on its socket (no byte received, none of ours acknowledged, by the kernel's TCP
//! counters) for the connection's limit, the socket is shut down. The blocked call then fails at once,
//! the driver's connection is closed (the server rolls the transaction back when it next runs, or
//! after `idle_in_transaction_session_timeout` behind a proxy), and [`fired_limit`] lets the error say
//! that the server gave no answer in time.
//!
//! The socket is found among the process's descriptors when the connection is made: the TCP socket
//! connected to the server's address that was not open before. When it cannot be told apart (another
//! connection to the same address made at the same moment, a Unix-domain socket, a system other than
//! Unix), the connection is not watched and only the server's own `statement_timeout` applies.
//! Without Linux's TCP counters the limit counts from the start of the call instead of from the last
//! movement.

use std::cell::RefCell;
use std::collections::HashSet;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

/// How often the watchdog looks at the connections under way.
const TICK: Duration = Duration::from_millis(250);

/// One connection's watch.
#[derive(Clone)]
pub(super) struct Watch {
    shared: Arc<Shared>,
}

struct Shared {
    socket: Option<Socket>,
    limit: Duration,
    fired: AtomicBool,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// A call is under way (nested calls count once).
    depth: usize,
    last_moved: Option<Instant>,
    last_counter: u64,
}

/// A TCP socket of this process, known by its descriptor and both ends (checked again before it is
/// shut down, so a descriptor reused for something else is never touched).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Socket {
    #[cfg(unix)]
    fd: std::os::fd::RawFd,
    local: SocketAddr,
    peer: SocketAddr,
}

/// The TCP sockets of this process connected to a port `port` (taken before and after connecting).
pub(super) fn sockets_to(port: u16) -> HashSet<SocketKey> {
    sys::sockets()
        .into_iter()
        .filter(|s| s.peer.port() == port)
        .map(SocketKey)
        .collect()
}

/// A socket as found by [`sockets_to`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct SocketKey(Socket);

impl Watch {
    /// Watch the one socket in `after` that is not in `before`; none is watched when there is not
    /// exactly one. `limit` is how long a call may see no movement.
    pub(super) fn new(
        before: &HashSet<SocketKey>,
        after: &HashSet<SocketKey>,
        limit: Duration,
    ) -> Watch {
        let mut new = after.difference(before);
        let socket = match (new.next(), new.next()) {
            (Some(only), None) => Some(only.0),
            _ => None,
        };
        let watch = Watch {
            shared: Arc::new(Shared {
                socket,
                limit,
                fired: AtomicBool::new(false),
                state: Mutex::new(State::default()),
            }),
        };
        if socket.is_some() {
            register(&watch.shared);
        }
        watch
    }

    /// Whether a socket is watched.
    #[cfg(test)]
    pub(super) fn watches_a_socket(&self) -> bool {
        self.shared.socket.is_some()
    }

    /// A call begins: watched until the returned guard is dropped. While it lives, errors mapped on
    /// this thread can ask [`fired_limit`] whether the watchdog ended the call.
    pub(super) fn begin(&self) -> Busy {
        if let Ok(mut state) = self.shared.state.lock() {
            if state.depth == 0 {
                state.last_moved = Some(Instant::now());
                state.last_counter = self.shared.socket.map(sys::moved).unwrap_or(0);
            }
            state.depth += 1;
        }
        CURRENT.with(|c| c.borrow_mut().push(self.shared.clone()));
        Busy {
            shared: self.shared.clone(),
        }
    }
}

/// A call under way (see [`Watch::begin`]).
pub(super) struct Busy {
    shared: Arc<Shared>,
}

impl Drop for Busy {
    fn drop(&mut self) {
        if let Ok(mut state) = self.shared.state.lock() {
            state.depth = state.depth.saturating_sub(1);
        }
        CURRENT.with(|c| {
            let mut calls = c.borrow_mut();
            if let Some(i) = calls.iter().rposition(|s| Arc::ptr_eq(s, &self.shared)) {
                calls.remove(i);
            }
        });
    }
}

thread_local! {
    /// The connections whose calls this thread is in (a check holds two: the first and the helper).
    static CURRENT: RefCell<Vec<Arc<Shared>>> = const { RefCell::new(Vec::new()) };
}

/// When a call this thread is in was ended by the watchdog: the limit it waited, in whole seconds.
pub(super) fn fired_limit() -> Option<u64> {
    CURRENT.with(|c| {
        c.borrow()
            .iter()
            .find(|s| s.fired.load(Ordering::Relaxed))
            .map(|s| s.limit.as_secs().max(1))
    })
}

/// Connections being watched, looked at by one thread for the whole process.
fn register(shared: &Arc<Shared>) {
    static WATCHED: OnceLock<Mutex<Vec<Weak<Shared>>>> = OnceLock::new();
    let watched = WATCHED.get_or_init(|| {
        let spawned = std::thread::Builder::new()
            .name("tongwen-pg-watch".into())
            .spawn(|| loop {
                std::thread::sleep(TICK);
                if let Some(list) = WATCHED.get() {
                    if let Ok(mut list) = list.lock() {
                        list.retain(|w| w.upgrade().is_some_and(|s| look_at(&s)));
                    }
                }
            });
        // Without the thread, calls are bounded by the server's statement timeout alone.
        drop(spawned);
        Mutex::new(Vec::new())
    });
    if let Ok(mut list) = watched.lock() {
        list.push(Arc::downgrade(shared));
    }
}

/// Look at one connection; false once it is done with (fired).
fn look_at(shared: &Shared) -> bool {
    let Some(socket) = shared.socket else {
        return false;
    };
    let Ok(mut state) = shared.state.lock() else {
        return false;
    };
    if state.depth == 0 {
        return true;
    }
    let now = Instant::now();
    let counter = sys::moved(socket);
    if counter != state.last_counter {
        state.last_counter = counter;
        state.last_moved = Some(now);
        return true;
    }
    let since = state.last_moved.unwrap_or(now);
    if now.duration_since(since) < shared.limit {
        return true;
    }
    shared.fired.store(true, Ordering::Relaxed);
    sys::shut_down(socket);
    false
}

#[cfg(unix)]
mod sys {
    use std::os::fd::{BorrowedFd, RawFd};

    use socket2::SockRef;

    use super::Socket;

    /// The descriptors this process may have open.
    fn descriptors() -> Vec<RawFd> {
        #[cfg(target_os = "linux")]
        if let Ok(dir) = std::fs::read_dir("/proc/self/fd") {
            return dir
                .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
                .collect();
        }
        (0..4096).collect()
    }

    fn socket_at(fd: RawFd) -> Option<Socket> {
        // SAFETY: the descriptor is only borrowed for the two calls below, which fail harmlessly
        // (EBADF, ENOTSOCK) if it was closed or reused meanwhile; it is never closed here.
        let borrowed = unsafe { BorrowedFd::borrow_raw(fd) };
        let sock = SockRef::from(&borrowed);
        let local = sock.local_addr().ok()?.as_socket()?;
        let peer = sock.peer_addr().ok()?.as_socket()?;
        Some(Socket { fd, local, peer })
    }

    pub(super) fn sockets() -> Vec<Socket> {
        descriptors().into_iter().filter_map(socket_at).collect()
    }

    /// Bytes received plus bytes of ours acknowledged: changes whenever the connection moves.
    #[cfg(target_os = "linux")]
    pub(super) fn moved(socket: Socket) -> u64 {
        // SAFETY: getsockopt writes at most `len` bytes into `info`, a plain C struct.
        unsafe {
            let mut info: libc::tcp_info = std::mem::zeroed();
            let mut len = std::mem::size_of::<libc::tcp_info>() as libc::socklen_t;
            let rc = libc::getsockopt(
                socket.fd,
                libc::IPPROTO_TCP,
                libc::TCP_INFO,
                (&mut info as *mut libc::tcp_info).cast(),
                &mut len,
            );
            if rc != 0 {
                return 0;
            }
            info.tcpi_bytes_received.wrapping_add(info.tcpi_bytes_acked)
        }
    }

    /// Without the kernel's counters nothing is seen to move: the limit counts from the call's start.
    #[cfg(not(target_os = "linux"))]
    pub(super) fn moved(_socket: Socket) -> u64 {
        0
    }

    /// Shut the socket down (both directions) if the descriptor still is that socket.
    pub(super) fn shut_down(socket: Socket) {
        if socket_at(socket.fd) == Some(socket) {
            // SAFETY: as in `socket_at`; shutting down does not close the descriptor.
            let borrowed = unsafe { BorrowedFd::borrow_raw(socket.fd) };
            let _ = SockRef::from(&borrowed).shutdown(std::net::Shutdown::Both);
        }
    }
}

#[cfg(not(unix))]
mod sys {
    use super::Socket;

    pub(super) fn sockets() -> Vec<Socket> {
        Vec::new()
    }

    pub(super) fn moved(_socket: Socket) -> u64 {
        0
    }

    pub(super) fn shut_down(_socket: Socket) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use std::net::{TcpListener, TcpStream};

    #[cfg(unix)]
    #[test]
    fn a_silent_peer_is_cut_off_after_the_limit_and_a_busy_one_is_not() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let before = sockets_to(port);
        let mut client = TcpStream::connect(("127.0.0.1", port)).unwrap();
        let after = sockets_to(port);
        let (mut server, _) = listener.accept().unwrap();
        let watch = Watch::new(&before, &after, Duration::from_millis(600));
        assert!(watch.watches_a_socket());

        // A peer that keeps sending is never cut off, however long the call.
        let writer = std::thread::spawn(move || {
            use std::io::Write;
            for _ in 0..8 {
                server.write_all(b"x").unwrap();
                std::thread::sleep(Duration::from_millis(200));
            }
            server
        });
        {
            let _busy = watch.begin();
            let mut buf = [0u8; 8];
            let mut got = 0;
            while got < 8 {
                got += client.read(&mut buf).unwrap();
            }
            assert_eq!(fired_limit(), None);
        }
        let _server = writer.join().unwrap();

        // A silent one is: the blocked read returns.
        let started = Instant::now();
        let _busy = watch.begin();
        let mut buf = [0u8; 1];
        let read = client.read(&mut buf);
        assert!(matches!(read, Ok(0) | Err(_)), "{read:?}");
        let waited = started.elapsed();
        assert!(waited >= Duration::from_millis(600), "{waited:?}");
        assert_eq!(fired_limit(), Some(1));
    }

    #[test]
    fn an_idle_connection_is_never_cut_off() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let before = sockets_to(port);
        let client = TcpStream::connect(("127.0.0.1", port)).unwrap();
        let after = sockets_to(port);
        let _server = listener.accept().unwrap();
        let watch = Watch::new(&before, &after, Duration::from_millis(300));
        std::thread::sleep(Duration::from_millis(900));
        drop(watch.begin());
        // Not shut down: the peer address is still there.
        assert!(client.peer_addr().is_ok());
        let mut probe = [0u8; 1];
        client.set_nonblocking(true).unwrap();
        let read = (&client).read(&mut probe);
        assert!(
            matches!(&read, Err(e) if e.kind() == std::io::ErrorKind::WouldBlock),
            "{read:?}"
        );
    }
}
