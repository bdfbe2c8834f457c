terraform {
  required_providers {
    postgresql = {
      source = "pgtf/postgresql"
    }
  }
}

variable "bastion_private_key" {
  type      = string
  sensitive = true
}

# The database is in a private network; the bastion can reach it.
provider "postgresql" {
  # host and port as the bastion sees them: resolved and dialled from the bastion
  host        = "db.internal"
  port        = 5432
  username    = "terraform"
  sslmode     = "verify-full" # checks the certificate of db.internal, not of the bastion
  sslrootcert = "/etc/ssl/certs/db-ca.pem"

  ssh_tunnel {
    host        = "bastion.example.com"
    port        = 22
    user        = "terraform"
    private_key = var.bastion_private_key
    # or: private_key_file = "~/.ssh/id_ed25519" (with private_key_passphrase if encrypted)
    # or: agent = true (the SSH agent at SSH_AUTH_SOCK)

    # The bastion's host key is always verified: by default against ~/.ssh/known_hosts,
    # here against the key itself (ssh-keyscan prints it; check its fingerprint first).
    host_key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIRAOFcBll9TVq0MDEnlsLFd5xK61U/b+rQwauPITOFf"
    # or: known_hosts_file = "/etc/ssh/ssh_known_hosts"
  }
}
