terraform {
  required_providers {
    postgresql = {
      source = "pgtf/postgresql"
    }
  }
}

variable "proxy_password" {
  type      = string
  sensitive = true
}

provider "postgresql" {
  host     = "db.internal"
  username = "terraform"

  # socks5h: the proxy resolves db.internal; socks5: this machine does.
  # Without proxy_url, a socks5:// or socks5h:// ALL_PROXY applies (and NO_PROXY).
  proxy_url = "socks5h://terraform:${var.proxy_password}@proxy.example.com:1080"
}
