//! The ways in: the pbmserv command language ([`command`]) and the text port that speaks it
//! ([`text`]), the JSON API and WebSocket ([`http`]), the browser's pages (`web`) and mail
//! ([`mail`]). Doors translate between a protocol and domain calls, and share the renderers of
//! [`render`].

mod accept;
pub mod command;
pub mod http;
pub mod mail;
pub mod render;
pub mod request_id;
pub mod session_cookie;
pub mod text;
pub mod text_tls;
